extension PinGuardMetrics {
    // The negotiated cipher and group, and Certificate Transparency, per address.

    /// The cipher suite a TLS 1.3 handshake of the probe (OpenSSL's defaults) nearly always gets: not written.
    public static let usualCipher = "TLS_AES_256_GCM_SHA384"
    /// The key-exchange group the probe offers first and nearly always gets: not written.
    public static let usualGroup = "X25519"

    /// Negotiated cipher suite, unless `usualCipher`.
    public static let tlsCipherInfo = MetricFamily(
        "pinguard_tls_cipher_info", .gauge, labels: ["target", "address", "cipher"],
        help: "Negotiated cipher suite of the last probe, as OpenSSL names it; absent for TLS_AES_256_GCM_SHA384 (TLS 1.3) or before a cipher. From the latest scheduled probe.")
    /// Negotiated key-exchange group, unless `usualGroup`.
    public static let tlsGroupInfo = MetricFamily(
        "pinguard_tls_group_info", .gauge, labels: ["target", "address", "group"],
        help: "Negotiated key-exchange group of the last probe, e.g. secp384r1; absent for X25519 or without one. From the latest scheduled probe.")
    /// Valid SCTs by where they came from.
    public static let ctSCTs = MetricFamily(
        "pinguard_ct_scts", .gauge, labels: ["target", "address", "source"],
        help: "SCTs whose signature verifies with their log's key, by source (embedded, tls, ocsp); embedded always, the others when the server sent any. Only while a policy set checks CT, for chains a CT policy applies to or that carry SCTs.")
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

extension TargetSeries {
    /// The negotiated cipher and group and the CT families, in `PinGuardMetrics.ctFamilies` order.
    static let ct: [TargetSeries] = [
        .perAddressInfo(M.tlsCipherInfo, bytesPerTarget: 64) { n in n.facts.tlsCipher.flatMap { $0 == M.usualCipher ? nil : $0 } },
        .perAddressInfo(M.tlsGroupInfo, bytesPerTarget: 64) { n in n.facts.tlsGroup.flatMap { $0 == M.usualGroup ? nil : $0 } },
        TargetSeries(M.ctSCTs, bytesPerTarget: 16) { r, _, w in
            // A chain no client's CT policy applies to (a private root) that carries no SCT has nothing to count.
            for n in r.nodes where n.facts.success && n.facts.ct.collected
                && (!n.facts.ct.scts.isEmpty || n.evaluations.contains { $0.ct != nil }) {
                for source in SCTSource.allCases {
                    let found = n.facts.ct.scts.filter { $0.source == source }
                    guard source == .embedded || !found.isEmpty else { continue }
                    w.begin(); w.label(r.target.name); w.label(n.address); w.label(source.rawValue)
                    w.end(Double(found.count { $0.status == .valid }))
                }
            }
        },
        TargetSeries(M.ctCompliant, bytesPerTarget: 16) { r, _, w in
            for n in r.nodes where n.facts.success && n.facts.ct.collected {
                var clients: [CTClient] = []
                for e in n.evaluations {
                    guard let c = e.ctClient, let j = e.ct, !clients.contains(c) else { continue }
                    clients.append(c)
                    w.begin(); w.label(r.target.name); w.label(n.address); w.label(c.rawValue); w.end(j.compliant ? 1 : 0)
                }
            }
        },
    ]
}
