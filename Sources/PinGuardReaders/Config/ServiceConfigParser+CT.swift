import PinGuardCore

extension ServiceConfigParser {
    /// `ct: {log_lists: {apple: FILE|URL, chrome: FILE|URL}, log_list_keys: {chrome: FILE}, refresh: DURATION,
    /// public_roots: FILE}`.
    static func certificateTransparency(_ v: YAMLValue, into c: inout ServiceConfig) throws(ConfigError) {
        let m = try v.mapping(allowed: ["log_lists", "log_list_keys", "refresh", "public_roots"])
        if let lv = m["log_lists"], !lv.isNull {
            let lists = try lv.mapping(allowed: Set(CTLogListName.allCases.map(\.rawValue)))
            for name in CTLogListName.allCases {
                guard let f = lists[name.rawValue], !f.isNull else { continue }
                c.ctLogLists[name] = try logList(f, name: name)
                c.lines[f.path] = f.line
            }
        }
        if let kv = m["log_list_keys"], !kv.isNull {
            let keys = try kv.mapping(allowed: Set(CTLogListName.allCases.filter(\.isSigned).map(\.rawValue)))
            for name in CTLogListName.allCases {
                guard let k = keys[name.rawValue], !k.isNull else { continue }
                c.ctLogListKeys[name] = try k.nonEmptyString()
                c.lines[k.path] = k.line
                guard CTLogListSource(configured: c.ctLogLists[name]).url != nil else {
                    throw k.error("only a list fetched from its URL is checked with a key: ct.log_lists.\(name.rawValue) is not an https:// URL")
                }
            }
        }
        if let r = m["refresh"], !r.isNull {
            c.ctRefresh = try r.duration(max: 30 * 86_400)
            guard c.ctRefresh >= 60 else { throw r.error("\(PromDuration.format(c.ctRefresh)) is shorter than the minimum of 1m") }
        }
        if let r = m["public_roots"], !r.isNull {
            c.ctPublicRoots = try r.nonEmptyString()
            c.lines[r.path] = r.line
        }
    }

    /// A list's file or URL: a URL must be `https://` with a host (a list fetched over plain HTTP could be
    /// anyone's), and a signed list's URL must end in `.json` (its signature is fetched with `.sig` instead).
    static func logList(_ f: YAMLValue, name: CTLogListName) throws(ConfigError) -> String {
        let text = try f.nonEmptyString()
        guard CTLogListSource.isURL(text) else { return text }
        guard CTLogListSource.isHTTPS(text) else {
            throw f.error("\(EchoedInput.quoted(text)) is not an https:// URL: log lists are fetched over verified HTTPS only")
        }
        if name.isSigned, CTLogListSource.signatureURL(of: text) == nil {
            throw f.error("\(EchoedInput.quoted(text)) does not end in .json: its signature is fetched from the same URL with .sig for .json")
        }
        return text
    }
}
