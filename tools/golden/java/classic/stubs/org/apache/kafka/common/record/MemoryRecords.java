// kpart's stand-in: protocol.types.Type names MemoryRecords for its RECORDS types, which the
// assignors never use; the real class pulls in the record/compression code and generated messages.
// Abstract so that it fits every release's BaseRecords interface.
package org.apache.kafka.common.record;

import java.nio.ByteBuffer;

public abstract class MemoryRecords implements BaseRecords {
    public static MemoryRecords readableRecords(ByteBuffer buffer) {
        throw new UnsupportedOperationException("records are not used by the assignors");
    }

    public abstract ByteBuffer buffer();
}
