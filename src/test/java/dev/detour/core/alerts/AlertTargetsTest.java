package dev.detour.core.alerts;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetAddress;
import java.net.UnknownHostException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** W-1: which addresses an alert channel may reach, with private targets refused (the default) or allowed. */
class AlertTargetsTest {

    @ParameterizedTest(name = "{0}: {1} / allowed: {2}")
    @CsvSource(delimiter = '|', value = {
        "169.254.169.254        | forbidden_target | forbidden_target",
        "::ffff:169.254.169.254 | forbidden_target | forbidden_target",
        "100.100.100.200        | forbidden_target | forbidden_target",
        "fd00:ec2::254          | forbidden_target | forbidden_target",
        "169.254.10.1           | forbidden_target | forbidden_target",
        "fe80::1                | forbidden_target | forbidden_target",
        "0.0.0.0                | forbidden_target | forbidden_target",
        "0.1.2.3                | forbidden_target | forbidden_target",
        "::                     | forbidden_target | forbidden_target",
        "224.0.0.1              | forbidden_target | forbidden_target",
        "127.0.0.1              | private_target   | ''",
        "127.8.9.10             | private_target   | ''",
        "::1                    | private_target   | ''",
        "10.1.2.3               | private_target   | ''",
        "172.16.0.1             | private_target   | ''",
        "172.31.255.255         | private_target   | ''",
        "192.168.1.10           | private_target   | ''",
        "100.64.0.1             | private_target   | ''",
        "fd12:3456::1           | private_target   | ''",
        "172.32.0.1             | ''               | ''",
        "100.128.0.1            | ''               | ''",
        "8.8.8.8                | ''               | ''",
        "2001:db8::1            | ''               | ''",
    })
    void metadataAndLinkLocalAreNeverATargetAndPrivateRangesOnlyWhenAllowed(String ip, String refused,
            String refusedWhenAllowed) throws UnknownHostException {
        byte[] address = InetAddress.getByName(ip).getAddress(); // literals only: no name is looked up
        assertEquals(refused, code(AlertTargets.refusal(address, false)));
        assertEquals(refusedWhenAllowed, code(AlertTargets.refusal(address, true)));
    }

    private static String code(AlertTargets.Refusal refusal) {
        return refusal == null ? "" : refusal.code();
    }
}
