// kpart's stand-in: only named as a config default (BrokerSecurityConfigs); the real class pulls in
// generated protocol messages. Never instantiated by the assignors.
package org.apache.kafka.common.security.authenticator;

import org.apache.kafka.common.security.auth.AuthenticationContext;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.security.auth.KafkaPrincipalBuilder;

public class DefaultKafkaPrincipalBuilder implements KafkaPrincipalBuilder {
    @Override
    public KafkaPrincipal build(AuthenticationContext context) {
        throw new UnsupportedOperationException();
    }

    // KafkaPrincipalSerde's methods (the interface KafkaPrincipalBuilder extends from 2.8 on); no
    // @Override so that the stand-in also compiles against releases without it.
    public byte[] serialize(KafkaPrincipal principal) {
        throw new UnsupportedOperationException();
    }

    public KafkaPrincipal deserialize(byte[] bytes) {
        throw new UnsupportedOperationException();
    }
}
