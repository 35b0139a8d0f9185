// kpart's stand-in for the coordinator's Assignment (the real class also converts generated
// records, which the driver does not compile): an immutable view of a member's partitions.
package org.apache.kafka.coordinator.group.modern;

import org.apache.kafka.common.Uuid;
import org.apache.kafka.coordinator.group.api.assignor.MemberAssignment;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

public class Assignment implements MemberAssignment {
    public static final Assignment EMPTY = new Assignment(Map.of());
    private final Map<Uuid, Set<Integer>> partitions;

    public Assignment(Map<Uuid, Set<Integer>> partitions) {
        this.partitions = Collections.unmodifiableMap(Objects.requireNonNull(partitions));
    }

    @Override
    public Map<Uuid, Set<Integer>> partitions() {
        return partitions;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Assignment && partitions.equals(((Assignment) o).partitions);
    }

    @Override
    public int hashCode() {
        return partitions.hashCode();
    }
}
