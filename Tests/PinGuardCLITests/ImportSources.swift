import Foundation

/// Source files in each import format, pinning the real keys of the test PKI for the hosts the world serves.
enum ImportSources {
    /// The `TSKConfiguration` domains, in order: `pinguard.test` with subdomains (valid leaf + reserve, with a
    /// report URI), `expiring.pinguard.test` excluded from it, `backup.` and `otherca.` report-only
    /// (`TSKEnforcePinning` false, valid leaf + reserve), and `p384.` pinned on the intermediate + reserve.
    static func trustKitPlist(_ k: ImportPins) -> String {
        func hashes(_ h: [String]) -> String {
            "\t\t\t\t<key>TSKPublicKeyHashes</key>\n\t\t\t\t<array>\n"
                + h.map { "\t\t\t\t\t<string>\($0)</string>\n" }.joined() + "\t\t\t\t</array>\n"
        }
        return """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>CFBundleIdentifier</key>
        \t<string>test.pinguard.ios</string>
        \t<key>CFBundleShortVersionString</key>
        \t<string>1.4.2</string>
        \t<key>TSKConfiguration</key>
        \t<dict>
        \t\t<key>TSKSwizzleNetworkDelegates</key>
        \t\t<true/>
        \t\t<key>TSKPinnedDomains</key>
        \t\t<dict>
        \t\t\t<key>pinguard.test</key>
        \t\t\t<dict>
        \t\t\t\t<key>TSKIncludeSubdomains</key>
        \t\t\t\t<true/>

        """ + hashes([k.valid, k.reserve]) + """
        \t\t\t\t<key>TSKReportUris</key>
        \t\t\t\t<array>
        \t\t\t\t\t<string>https://report.pinguard.test/pin-failure</string>
        \t\t\t\t</array>
        \t\t\t</dict>
        \t\t\t<key>expiring.pinguard.test</key>
        \t\t\t<dict>
        \t\t\t\t<key>TSKExcludeSubdomainFromParentPolicy</key>
        \t\t\t\t<true/>
        \t\t\t</dict>
        \t\t\t<key>backup.pinguard.test</key>
        \t\t\t<dict>
        \t\t\t\t<key>TSKEnforcePinning</key>
        \t\t\t\t<false/>

        """ + hashes([k.valid, k.reserve]) + """
        \t\t\t</dict>
        \t\t\t<key>otherca.pinguard.test</key>
        \t\t\t<dict>
        \t\t\t\t<key>TSKEnforcePinning</key>
        \t\t\t\t<false/>

        """ + hashes([k.valid, k.reserve]) + """
        \t\t\t</dict>
        \t\t\t<key>p384.pinguard.test</key>
        \t\t\t<dict>

        """ + hashes([k.intermediate, k.reserve]) + """
        \t\t\t</dict>
        \t\t</dict>
        \t</dict>
        </dict>
        </plist>

        """
    }

    /// The same configuration as `trustKitPlist` as a TrustKit JSON document (no bundle version).
    static func trustKitJSON(_ k: ImportPins) -> String {
        """
        {
          "TSKSwizzleNetworkDelegates": true,
          "TSKPinnedDomains": {
            "pinguard.test": {
              "TSKIncludeSubdomains": true,
              "TSKPublicKeyHashes": ["\(k.valid)", "\(k.reserve)"],
              "TSKReportUris": ["https://report.pinguard.test/pin-failure"]
            },
            "expiring.pinguard.test": {"TSKExcludeSubdomainFromParentPolicy": true},
            "backup.pinguard.test": {"TSKEnforcePinning": false, "TSKPublicKeyHashes": ["\(k.valid)", "\(k.reserve)"]},
            "otherca.pinguard.test": {"TSKEnforcePinning": false, "TSKPublicKeyHashes": ["\(k.valid)", "\(k.reserve)"]},
            "p384.pinguard.test": {"TSKPublicKeyHashes": ["\(k.intermediate)", "\(k.reserve)"]}
          }
        }

        """
    }

    /// `NSPinnedDomains`: `pinguard.test` with subdomains, leaf identities (valid, otherca, reserve) *and* CA
    /// identities (test intermediate, test root); `p384.pinguard.test` with CA identities only (the same two).
    static func nsPinnedDomainsPlist(_ k: ImportPins) -> String {
        func identities(_ key: String, _ h: [String]) -> String {
            "\t\t\t\t<key>\(key)</key>\n\t\t\t\t<array>\n"
                + h.map { "\t\t\t\t\t<dict>\n\t\t\t\t\t\t<key>SPKI-SHA256-BASE64</key>\n\t\t\t\t\t\t<string>\($0)</string>\n\t\t\t\t\t</dict>\n" }.joined()
                + "\t\t\t\t</array>\n"
        }
        return """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>CFBundleShortVersionString</key>
        \t<string>2.0</string>
        \t<key>NSAppTransportSecurity</key>
        \t<dict>
        \t\t<key>NSPinnedDomains</key>
        \t\t<dict>
        \t\t\t<key>pinguard.test</key>
        \t\t\t<dict>
        \t\t\t\t<key>NSIncludesSubdomains</key>
        \t\t\t\t<true/>

        """ + identities("NSPinnedLeafIdentities", [k.valid, k.otherca, k.reserve])
            + identities("NSPinnedCAIdentities", [k.intermediate, k.root]) + """
        \t\t\t</dict>
        \t\t\t<key>p384.pinguard.test</key>
        \t\t\t<dict>

        """ + identities("NSPinnedCAIdentities", [k.intermediate, k.root]) + """
        \t\t\t</dict>
        \t\t</dict>
        \t</dict>
        </dict>
        </plist>

        """
    }

    /// Android NSC: `valid.` pinned (valid leaf + reserve) with two nested `domain-config`s — `rotated.` inheriting
    /// that pin-set, `backup.` with its own (backup spare key + reserve) — and `expiring.` with a pin-set that
    /// expired in 2020; a `debug-overrides` trusting user CAs (reported, not imported).
    static func androidNSC(_ k: ImportPins) -> String {
        """
        <?xml version="1.0" encoding="utf-8"?>
        <!-- res/xml/network_security_config.xml -->
        <network-security-config>
            <base-config cleartextTrafficPermitted="false">
                <trust-anchors>
                    <certificates src="system" />
                </trust-anchors>
            </base-config>
            <domain-config>
                <domain>valid.pinguard.test</domain>
                <pin-set>
                    <pin digest="SHA-256">\(k.valid)</pin>
                    <pin digest="SHA-256">\(k.reserve)</pin>
                </pin-set>
                <!-- inherits the pin-set above -->
                <domain-config>
                    <domain>rotated.pinguard.test</domain>
                </domain-config>
                <domain-config>
                    <domain>backup.pinguard.test</domain>
                    <pin-set>
                        <pin digest="SHA-256">\(k.backupSpare)</pin>
                        <pin digest="SHA-256">\(k.reserve)</pin>
                    </pin-set>
                </domain-config>
            </domain-config>
            <domain-config>
                <domain>expiring.pinguard.test</domain>
                <pin-set expiration="2020-01-01">
                    <pin digest="SHA-256">\(k.valid)</pin>
                    <pin digest="SHA-256">\(k.reserve)</pin>
                </pin-set>
            </domain-config>
            <debug-overrides>
                <trust-anchors>
                    <certificates src="user" />
                </trust-anchors>
            </debug-overrides>
        </network-security-config>

        """
    }

    /// OkHttp (Kotlin): `*.pinguard.test` (valid leaf + reserve, through a constant) and `**.eu.pinguard.test`
    /// (the deep leaf + reserve).
    static func okHttpKotlin(_ k: ImportPins) -> String {
        """
        package test.pinguard.net

        import okhttp3.CertificatePinner
        import okhttp3.OkHttpClient

        private const val RESERVE_PIN = "sha256/\(k.reserve)"

        object PinnedClient {
            private val pinner = CertificatePinner.Builder()
                .add("*.pinguard.test", "sha256/\(k.valid)", RESERVE_PIN)
                .add("**.eu.pinguard.test", "sha256/\(k.deep)", RESERVE_PIN)
                .build()

            val client: OkHttpClient = OkHttpClient.Builder()
                .certificatePinner(pinner)
                .build()
        }

        """
    }

    /// HPKP headers: enforced for `valid.` and `rotated.` (valid leaf + reserve, `Host:` lines), enforced with
    /// includeSubDomains for `pinguard.test` (the `expiring` leaf + reserve), Report-Only for `backup.` (a curl
    /// command names the host) and for `otherca.` (curl -v lines), both with the valid leaf + reserve.
    static func hpkpHeaders(_ k: ImportPins) -> String {
        """
        # Public-Key-Pins headers of the test front ends, captured with curl.
        Host: valid.pinguard.test
        Public-Key-Pins: pin-sha256="\(k.valid)"; pin-sha256="\(k.reserve)"; max-age=5184000

        Host: rotated.pinguard.test
        Public-Key-Pins: pin-sha256="\(k.valid)"; pin-sha256="\(k.reserve)"; max-age=5184000

        Host: pinguard.test
        Public-Key-Pins: pin-sha256="\(k.expiring)"; pin-sha256="\(k.reserve)"; max-age=5184000; includeSubDomains

        $ curl -sI https://backup.pinguard.test/
        Public-Key-Pins-Report-Only: pin-sha256="\(k.valid)"; pin-sha256="\(k.reserve)"; max-age=600; report-uri="https://report.pinguard.test/hpkp"

        > Host: otherca.pinguard.test
        < Public-Key-Pins-Report-Only: pin-sha256="\(k.valid)"; pin-sha256="\(k.reserve)"; max-age=600

        """
    }

    /// 1-based number of the first line of `text` containing `needle`.
    static func line(of needle: String, in text: String) -> Int? {
        for (i, l) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where l.contains(needle) {
            return i + 1
        }
        return nil
    }
}
