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
}
