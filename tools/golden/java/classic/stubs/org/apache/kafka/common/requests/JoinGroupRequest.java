// kpart's stand-in for the two constants ConsumerGroupMetadata takes from JoinGroupRequest (the
// real class pulls in the generated protocol messages, which the driver does not compile).
package org.apache.kafka.common.requests;

public final class JoinGroupRequest {
    public static final int UNKNOWN_GENERATION_ID = -1;
    public static final String UNKNOWN_MEMBER_ID = "";

    private JoinGroupRequest() {
    }
}
