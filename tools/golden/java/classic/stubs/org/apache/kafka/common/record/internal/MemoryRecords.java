// kpart's stand-in (4.3+, where the record classes moved to record.internal): protocol.types.Type
// names MemoryRecords for its RECORDS types, which the assignors never use; the real class pulls in
// the record/compression code and generated messages. Releases before 4.3 never name this package.
package org.apache.kafka.common.record.internal;

import java.nio.ByteBuffer;

public abstract class MemoryRecords implements BaseRecords {
    public static MemoryRecords readableRecords(ByteBuffer buffer) {
        throw new UnsupportedOperationException("records are not used by the assignors");
    }

    public abstract ByteBuffer buffer();
}
