// kpart's stand-in: protocol.types.Type names MemoryRecords for its RECORDS types, which the
// assignors never use; the real class pulls in the record/compression code and generated messages.
package org.apache.kafka.common.record;

import java.nio.ByteBuffer;

public class MemoryRecords implements BaseRecords {
    private final ByteBuffer buffer;

    private MemoryRecords(ByteBuffer buffer) {
        this.buffer = buffer;
    }

    public static MemoryRecords readableRecords(ByteBuffer buffer) {
        return new MemoryRecords(buffer);
    }

    public ByteBuffer buffer() {
        return buffer.duplicate();
    }

    @Override
    public int sizeInBytes() {
        return buffer.limit();
    }

    @Override
    public RecordsSend<? extends BaseRecords> toSend() {
        throw new UnsupportedOperationException();
    }
}
