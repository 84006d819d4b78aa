import PinGuardCore

extension ServiceConfigParser {
    /// `ct: {log_lists: {apple: FILE, chrome: FILE}, public_roots: FILE}`.
    static func certificateTransparency(_ v: YAMLValue, into c: inout ServiceConfig) throws(ConfigError) {
        let m = try v.mapping(allowed: ["log_lists", "public_roots"])
        if let lv = m["log_lists"], !lv.isNull {
            let lists = try lv.mapping(allowed: Set(CTLogListName.allCases.map(\.rawValue)))
            for name in CTLogListName.allCases {
                guard let f = lists[name.rawValue], !f.isNull else { continue }
                c.ctLogLists[name] = try f.nonEmptyString()
                c.lines[f.path] = f.line
            }
        }
        if let r = m["public_roots"], !r.isNull {
            c.ctPublicRoots = try r.nonEmptyString()
            c.lines[r.path] = r.line
        }
    }
}
