import PinGuardCore

/// Reads `<certificateTransparency enabled="…"/>` of a network security config: Android 16 checks CT only
/// where the file turns it on, so the imported set holds chains to CT exactly when `<base-config>` does;
/// a `<domain-config>` that says otherwise is reported, since a policy set has one CT setting.
enum AndroidCertificateTransparency {
    /// Sets the draft's client and CT requirement from `root` and notes what the file says.
    static func apply(_ root: XMLElementNode, draft: inout ImportDraft) {
        draft.client = .android
        let base = root.children(named: "base-config").first.flatMap { setting(in: $0) }
        let enabled = base?.enabled ?? false
        draft.certificateTransparency = enabled ? .required : .off
        // A file that pins nothing gets no set to hold to CT, so nothing to say about it.
        guard !draft.rules.isEmpty else { return }
        if let base {
            draft.noteSetting(.info, line: base.line, "<certificateTransparency enabled=\"\(base.enabled)\"> in <base-config>: "
                                  + "certificate_transparency: \(enabled ? "required" : "off")")
        } else {
            draft.noteSetting(.info, line: root.children(named: "base-config").first?.line ?? root.line, "no <certificateTransparency> in <base-config>: Android 16 does not check CT "
                                  + "(certificate_transparency: off); Android 17 checks it by default, so set "
                                  + "certificate_transparency: required to judge as Android 17 does")
        }
        for d in domainSettings(root) where d.enabled != enabled {
            draft.noteSetting(.warning, line: d.line,
                              "<certificateTransparency enabled=\"\(d.enabled)\"> in a <domain-config> differs from <base-config>; "
                                  + "the imported set holds every host to certificate_transparency: \(enabled ? "required" : "off") "
                                  + "(import the domains that differ into a set of their own)")
        }
    }

    /// The element's own `<certificateTransparency>` setting.
    static func setting(in e: XMLElementNode) -> (enabled: Bool, line: Int)? {
        e.children(named: "certificateTransparency").first.map { ($0.attributes["enabled"] == "true", $0.line) }
    }

    /// The settings of every `<domain-config>`, nested ones included.
    static func domainSettings(_ e: XMLElementNode) -> [(enabled: Bool, line: Int)] {
        e.children(named: "domain-config").flatMap { d in (setting(in: d).map { [$0] } ?? []) + domainSettings(d) }
    }
}
