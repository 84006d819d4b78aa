import PinGuardCore

/// Reads `<certificateTransparency enabled="…"/>` of a network security config as Android applies it: per
/// domain. A `<domain-config>`'s own setting covers its domains and its nested `<domain-config>`s (unless they
/// set their own); `<base-config>`'s covers the rest; without either, the platform default: off on Android 16,
/// on for an app that targets API level 37 or later (Android 17). The set holds `<base-config>`'s requirement;
/// a rule whose domain is held otherwise gets its own `certificate_transparency`.
enum AndroidCertificateTransparency {
    /// The first API level whose apps Android checks CT for by default.
    static let enabledByDefaultFromSDK = 37

    /// Sets the draft's client and CT requirements from `root`, for an app targeting `targetSDK` (nil: not known,
    /// judged as Android 16), and notes what the file says.
    static func apply(_ root: XMLElementNode, targetSDK: Int?, draft: inout ImportDraft) {
        draft.client = .android
        let baseElement = root.children(named: "base-config").first
        let base = baseElement.flatMap { setting(in: $0) }
        let platformDefault = (targetSDK ?? 0) >= enabledByDefaultFromSDK
        let enabled = base?.enabled ?? platformDefault
        draft.certificateTransparency = enabled ? .required : .off
        // A file that pins nothing gets no set to hold to CT, so nothing to say about it.
        guard !draft.rules.isEmpty else { return }
        if let base {
            draft.noteSetting(.info, line: base.line, "<certificateTransparency enabled=\"\(base.enabled)\"> in <base-config>: "
                                  + "certificate_transparency: \(requirement(enabled))")
        } else {
            draft.noteSetting(.info, line: baseElement?.line ?? root.line, defaultNote(targetSDK: targetSDK, enabled: enabled))
        }
        var byDomainLine: [Int: (enabled: Bool, line: Int)] = [:]
        collect(root, inherited: nil, into: &byDomainLine)
        draft.updateRules { rule in
            guard let line = rule.line, let own = byDomainLine[line], own.enabled != enabled else { return }
            rule.policy.certificateTransparency = own.enabled ? .required : .off
            rule.origin.append("<certificateTransparency enabled=\"\(own.enabled)\"> (line \(own.line)) covers this domain: certificate_transparency: \(requirement(own.enabled))")
        }
        for d in domainSettings(root) where d.enabled != enabled {
            draft.noteSetting(.info, line: d.line,
                              "<certificateTransparency enabled=\"\(d.enabled)\"> in a <domain-config>: its domains (and nested "
                                  + "<domain-config>s without their own) get certificate_transparency: \(requirement(d.enabled))")
        }
    }

    /// What a file without `<certificateTransparency>` in `<base-config>` gets, and why.
    static func defaultNote(targetSDK: Int?, enabled: Bool) -> String {
        guard let targetSDK else {
            return "no <certificateTransparency> in <base-config>: Android 16 does not check CT (certificate_transparency: off); "
                + "Android 17 checks it by default for apps that target API level \(enabledByDefaultFromSDK): give --target-sdk N "
                + "or --manifest FILE to judge as the app's platform does"
        }
        return "no <certificateTransparency> in <base-config>: an app that targets API level \(targetSDK) gets Android's default, "
            + "CT \(enabled ? "checked" : "not checked") (certificate_transparency: \(requirement(enabled)))"
    }

    static func requirement(_ enabled: Bool) -> String { enabled ? "required" : "off" }

    /// The element's own `<certificateTransparency>` setting.
    static func setting(in e: XMLElementNode) -> (enabled: Bool, line: Int)? {
        e.children(named: "certificateTransparency").first.map { ($0.attributes["enabled"] == "true", $0.line) }
    }

    /// For the line of each `<domain>` under a `<domain-config>` with a setting in force (its own or a parent's),
    /// that setting.
    static func collect(_ e: XMLElementNode, inherited: (enabled: Bool, line: Int)?, into map: inout [Int: (enabled: Bool, line: Int)]) {
        for d in e.children(named: "domain-config") {
            let own = setting(in: d) ?? inherited
            if let own { for domain in d.children(named: "domain") { map[domain.line] = own } }
            collect(d, inherited: own, into: &map)
        }
    }

    /// The settings of every `<domain-config>`, nested ones included.
    static func domainSettings(_ e: XMLElementNode) -> [(enabled: Bool, line: Int)] {
        e.children(named: "domain-config").flatMap { d in (setting(in: d).map { [$0] } ?? []) + domainSettings(d) }
    }
}
