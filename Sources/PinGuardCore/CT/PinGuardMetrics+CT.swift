extension PinGuardMetrics {
    // The negotiated cipher and group, and Certificate Transparency, per address.

    /// Negotiated cipher suite.
    public static let tlsCipherInfo = MetricFamily(
        "pinguard_tls_cipher_info", .gauge, labels: ["target", "address", "cipher"],
        help: "Negotiated cipher suite of the last probe, as OpenSSL names it. From the latest scheduled probe.")
    /// Negotiated key-exchange group.
    public static let tlsGroupInfo = MetricFamily(
        "pinguard_tls_group_info", .gauge, labels: ["target", "address", "group"],
        help: "Negotiated key-exchange group of the last probe, e.g. X25519. From the latest scheduled probe.")
    /// Valid SCTs by where they came from.
    public static let ctSCTs = MetricFamily(
        "pinguard_ct_scts", .gauge, labels: ["target", "address", "source"],
        help: "SCTs whose signature verifies with their log's key, by source (embedded, tls, ocsp); embedded always, the others when the server sent any. Only while a policy set checks CT.")
    /// Whether the chain satisfies a client's CT policy.
    public static let ctCompliant = MetricFamily(
        "pinguard_ct_compliant", .gauge, labels: ["target", "address", "client"],
        help: "1 if the chain satisfies the CT policy of the client (ios, chrome, android, ...) of a policy set that checks CT, 0 if that client rejects it; absent for chains not anchored in a public root.")

    /// The CT and cipher families, in exposition order (after the forecast families).
    public static let ctFamilies: [MetricFamily] = [tlsCipherInfo, tlsGroupInfo, ctSCTs, ctCompliant]

    /// When each client's log list was published.
    public static let ctLogListTimestamp = MetricFamily(
        "pinguard_ct_log_list_timestamp_seconds", .gauge, labels: ["client"],
        help: "log_list_timestamp of the log list each client is judged with (ios: Apple's, chrome and android: Chrome's); Chrome stops enforcing CT 70 days after it.")
}

/// The CT and cipher families of a slice of results, one buffer each, in `PinGuardMetrics.ctFamilies` order.
struct CTWriters {
    var cipher: ExpositionWriter
    var group: ExpositionWriter
    var scts: ExpositionWriter
    var compliant: ExpositionWriter

    init(targets n: Int, headers: Bool) {
        typealias M = PinGuardMetrics
        cipher = ExpositionWriter(M.tlsCipherInfo, capacity: n * 128, header: headers)
        group = ExpositionWriter(M.tlsGroupInfo, capacity: n * 112, header: headers)
        scts = ExpositionWriter(M.ctSCTs, capacity: 1024, header: headers)
        compliant = ExpositionWriter(M.ctCompliant, capacity: 1024, header: headers)
    }

    /// Writes the series of every address of `r`.
    mutating func write(_ r: TargetResult) {
        let name = r.target.name
        for node in r.nodes {
            let facts = node.facts
            if let c = facts.tlsCipher { cipher.begin(); cipher.label(name); cipher.label(node.address); cipher.label(c); cipher.end(1) }
            if let g = facts.tlsGroup { group.begin(); group.label(name); group.label(node.address); group.label(g); group.end(1) }
            guard facts.success, facts.ct.collected else { continue }
            for source in SCTSource.allCases {
                let found = facts.ct.scts.filter { $0.source == source }
                guard source == .embedded || !found.isEmpty else { continue }
                scts.begin(); scts.label(name); scts.label(node.address); scts.label(source.rawValue)
                scts.end(Double(found.count { $0.status == .valid }))
            }
            var clients: [CTClient] = []
            for e in node.evaluations {
                guard let c = e.ctClient, let j = e.ct, !clients.contains(c) else { continue }
                clients.append(c)
                compliant.begin(); compliant.label(name); compliant.label(node.address); compliant.label(c.rawValue)
                compliant.end(j.compliant ? 1 : 0)
            }
        }
    }

    /// The buffers in family order.
    var buffers: [[UInt8]] { [cipher.buffer, group.buffer, scts.buffer, compliant.buffer] }
}
