/// Every metric family pinguard exports on /metrics, each declared once, in exposition order.
///
/// `MetricsRenderer` writes samples only through these declarations; the tests check
/// `contrib/prometheus/exported-metrics.txt` and docs/reference.md against `all`, so a family added here
/// without its documentation fails the build's tests.
public enum PinGuardMetrics {
    /// Appended to the help of the families whose values come from the latest probe.
    static let latest = " From the latest scheduled probe."

    // Per address of a target, from its latest probe (`address` is `ip:port`, "" when the name did not resolve).

    /// 1 if the last probe retrieved a chain.
    public static let probeSuccess = MetricFamily(
        "pinguard_probe_success", .gauge, labels: ["target", "address"],
        help: "1 if the last probe retrieved a certificate chain." + latest)
    /// Duration of the last probe.
    public static let probeDuration = MetricFamily(
        "pinguard_probe_duration_seconds", .gauge, labels: ["target", "address"],
        help: "Duration of the last probe: resolve, connect and TLS handshake." + latest)
    /// When the last probe finished.
    public static let probeTimestamp = MetricFamily(
        "pinguard_probe_timestamp_seconds", .gauge, labels: ["target", "address"],
        help: "Unix time when the last probe of the target finished.")
    /// Negotiated TLS version.
    public static let tlsVersionInfo = MetricFamily(
        "pinguard_tls_version_info", .gauge, labels: ["target", "address", "version"],
        help: "Negotiated TLS version of the last probe." + latest)
    /// System trust and hostname verification result.
    public static let chainTrusted = MetricFamily(
        "pinguard_chain_trusted", .gauge, labels: ["target", "address"],
        help: "0 if the chain retrieved failed system trust or hostname verification; absent when it passed (or none was retrieved)." + latest)

    // Per certificate of the evaluated chain of each address.

    /// notAfter per certificate.
    public static let certNotAfter = MetricFamily(
        "pinguard_cert_not_after_timestamp_seconds", .gauge, labels: ["target", "address", "depth"],
        help: "notAfter of the leaf (depth 0) of the evaluated chain (kept when verification fails); certificates above it are in pinguard_chain_cert_info." + latest)
    /// notBefore per certificate.
    public static let certNotBefore = MetricFamily(
        "pinguard_cert_not_before_timestamp_seconds", .gauge, labels: ["target", "address", "depth"],
        help: "notBefore of the leaf (depth 0) of the evaluated chain." + latest)
    /// Identity of each certificate.
    public static let certInfo = MetricFamily(
        "pinguard_cert_info", .gauge,
        labels: ["target", "address", "depth", "subject", "issuer", "serial", "spki_sha256", "cert_sha256", "source"],
        help: "The leaf (depth 0) of the evaluated chain; source is served or store (trust anchor added from the store)." + latest)
    /// Earliest notAfter of the chain.
    public static let chainEarliestExpiry = MetricFamily(
        "pinguard_chain_earliest_expiry_timestamp_seconds", .gauge, labels: ["target", "address"],
        help: "Earliest notAfter of the evaluated chain." + latest)

    // Per target and its addresses.

    /// Labels of targets from target files.
    public static let targetInfo = MetricFamily(
        "pinguard_target_info", .gauge, labels: ["target"],
        help: "1 per target with labels from its target file (target_files, Prometheus file_sd format); each label is a label here, to join onto the target's series.")
    /// Addresses probed.
    public static let targetAddresses = MetricFamily(
        "pinguard_target_addresses", .gauge, labels: ["target"],
        help: "Addresses of the target probed in the latest probe (resolve: all probes every address up to max_addresses).")
    /// Addresses beyond `max_addresses`.
    public static let targetAddressesSkipped = MetricFamily(
        "pinguard_target_addresses_skipped", .gauge, labels: ["target"],
        help: "Resolved addresses of the target left unprobed because the name has more than max_addresses; for targets with several addresses, or any skipped." + latest)
    /// Distinct chains served by the addresses.
    public static let targetDistinctChains = MetricFamily(
        "pinguard_target_distinct_chains", .gauge, labels: ["target"],
        help: "Distinct certificate chains served by the addresses of the target; above 1, nodes differ. Only for targets with several addresses." + latest)
    /// Verdict per address.
    public static let addressPolicyAccept = MetricFamily(
        "pinguard_address_policy_accept", .gauge, labels: ["target", "address", "policy_set", "environment"],
        help: "1 if the pinned client of the policy set would accept the chain this address serves, 0 if it would reject. Only for targets with several addresses (else pinguard_policy_accept says it)." + latest)

    // Per target and policy set: the worst case over the target's addresses.

    /// The simulated client's verdict.
    public static let policyAccept = MetricFamily(
        "pinguard_policy_accept", .gauge, labels: ["target", "policy_set", "environment"],
        help: "1 if the pinned client of the policy set would accept the chain on every address of the target, 0 if it would reject any." + latest)
    /// The reason of the decision.
    public static let policyDecisionInfo = MetricFamily(
        "pinguard_policy_decision_info", .gauge, labels: ["target", "policy_set", "environment", "reason"],
        help: "Why the pinned client decided as it did; the reasons are listed in docs/reference.md." + latest)
    /// Whether each configured pin matches.
    public static let pinMatched = MetricFamily(
        "pinguard_pin_matched", .gauge, labels: ["target", "policy_set", "pin", "role", "type", "scope"],
        help: "1 if the configured pin matches the evaluated chain within its scope, else 0; one series per configured pin." + latest)
    /// When today's matching pins stop matching.
    public static let pinHorizon = MetricFamily(
        "pinguard_pin_horizon_timestamp_seconds", .gauge, labels: ["target", "policy_set"],
        help: "Pin horizon: latest notAfter among the certificates that today's matching pins match; after it those pins "
            + "stop matching. Conservative for spki pins (a renewal that keeps the key keeps matching)." + latest)
    /// Pins matching no certificate of the chain.
    public static let reservePins = MetricFamily(
        "pinguard_reserve_pins", .gauge, labels: ["target", "policy_set"],
        help: "Configured pins that match no certificate of the chain: keys to rotate to (RFC 7469 backup pins)." + latest)
    /// The policy's `expires`.
    public static let pinSetExpiry = MetricFamily(
        "pinguard_pin_set_expiry_timestamp_seconds", .gauge, labels: ["target", "policy_set"],
        help: "When the pin set stops being enforced (policy expires)." + latest)

    // Per target: TLS client authentication (mTLS).

    /// Whether the server asked for a client certificate.
    public static let mtlsClientCertificateRequested = MetricFamily(
        "pinguard_mtls_client_certificate_requested", .gauge, labels: ["target", "address"],
        help: "1 if the server asked for a client certificate (sent a CertificateRequest); 0 only for targets with a client identity whose server did not ask, absent otherwise." + latest)
    /// Whether a client certificate was sent.
    public static let mtlsClientCertificatePresented = MetricFamily(
        "pinguard_mtls_client_certificate_presented", .gauge, labels: ["target", "address"],
        help: "1 if the configured client certificate was sent when the server asked for one, else 0; only when it asked." + latest)
    /// Expiry of the configured client certificate.
    public static let clientCertificateNotAfter = MetricFamily(
        "pinguard_client_certificate_not_after_timestamp_seconds", .gauge, labels: ["target"],
        help: "notAfter of the target's configured client certificate (client_cert or client_pkcs12)." + latest)

    // Per certificate file of `files:`, judged like a served chain.

    /// Whether the file was read and parsed.
    public static let fileSuccess = MetricFamily(
        "pinguard_file_success", .gauge, labels: ["file"],
        help: "1 if the certificate file of files: was read and holds a chain, else 0.")
    /// System trust and hostname verification of the file's chain.
    public static let fileChainTrusted = MetricFamily(
        "pinguard_file_chain_trusted", .gauge, labels: ["file"],
        help: "1 if the file's chain passes system trust and hostname verification for its host, now.")
    /// notAfter per certificate of the file's chain.
    public static let fileCertNotAfter = MetricFamily(
        "pinguard_file_cert_not_after_timestamp_seconds", .gauge, labels: ["file", "depth"],
        help: "notAfter of each certificate of the file's chain (verified chain with its anchor when trusted).")
    /// Earliest notAfter of the file's chain.
    public static let fileChainEarliestExpiry = MetricFamily(
        "pinguard_file_chain_earliest_expiry_timestamp_seconds", .gauge, labels: ["file"],
        help: "Earliest notAfter of the file's chain.")
    /// Verdict per policy set on the file's chain.
    public static let filePolicyAccept = MetricFamily(
        "pinguard_file_policy_accept", .gauge, labels: ["file", "policy_set", "environment"],
        help: "1 if the pinned client of the policy set would accept the file's chain once it is served, 0 if it would reject.")
    /// Pin horizon of the file's chain.
    public static let filePinHorizon = MetricFamily(
        "pinguard_file_pin_horizon_timestamp_seconds", .gauge, labels: ["file", "policy_set"],
        help: "Pin horizon of the file's chain: latest notAfter among the certificates its matching pins match.")
    /// Reserve pins left with the file's chain.
    public static let fileReservePins = MetricFamily(
        "pinguard_file_reserve_pins", .gauge, labels: ["file", "policy_set"],
        help: "Configured pins that match no certificate of the file's chain: keys left to rotate to once it is served.")

    // Per policy set and environment, and for the service.

    /// Whether a signed policy bundle verified.
    public static let policyBundleValid = MetricFamily(
        "pinguard_policy_bundle_valid", .gauge, labels: ["policy_set", "environment"],
        help: "1 if the signed policy bundle verified (signature and payload) at the last configuration load, 0 if clients reject it.")
    /// Why, and which pins the clients keep.
    public static let policyBundleInfo = MetricFamily(
        "pinguard_policy_bundle_info", .gauge, labels: ["policy_set", "environment", "status", "scheme", "key_id", "kept_pins"],
        help: "Verification status of each signed policy bundle and the pins clients enforce: bundle, previous_verified, builtin or none.")

    /// Share of evaluated targets with a reserve pin.
    public static let backupPinCoverage = MetricFamily(
        "pinguard_backup_pin_coverage_ratio", .gauge, labels: ["policy_set", "environment"],
        help: "Share of evaluated targets of the policy set that have at least one reserve pin." + latest)
    /// Lint findings of the loaded policies.
    public static let policyLintFindings = MetricFamily(
        "pinguard_policy_lint_findings", .gauge, labels: ["policy_set", "severity"],
        help: "Findings of pinguard lint on the loaded policies, by severity.")
    /// Versions.
    public static let buildInfo = MetricFamily(
        "pinguard_build_info", .gauge, labels: ["version", "openssl_version"],
        help: "pinguard and OpenSSL versions.")
    /// Result of the last (re)load.
    public static let configLastReloadSuccessful = MetricFamily(
        "pinguard_config_last_reload_successful", .gauge,
        help: "1 if the last configuration (re)load succeeded.")
    /// When the configuration was last loaded.
    public static let configLastReloadSuccessTimestamp = MetricFamily(
        "pinguard_config_last_reload_success_timestamp_seconds", .gauge,
        help: "When the configuration was last loaded successfully.")
    /// Configured targets.
    public static let targets = MetricFamily(
        "pinguard_targets", .gauge,
        help: "Configured targets.")
    /// Probes run.
    public static let probesTotal = MetricFamily(
        "pinguard_probes_total", .counter,
        help: "Probes run since start.")
    /// Probes without a chain.
    public static let probeFailuresTotal = MetricFamily(
        "pinguard_probe_failures_total", .counter,
        help: "Probes that retrieved no chain since start.")
    /// Journal events lost.
    public static let journalWriteFailuresTotal = MetricFamily(
        "pinguard_journal_write_failures_total", .counter,
        help: "Journal events that could not be written (no journald socket, journal full).")
    /// Duration of the last round.
    public static let roundDuration = MetricFamily(
        "pinguard_round_duration_seconds", .gauge,
        help: "Duration of the last complete probe round.")
    /// When the last round finished.
    public static let roundTimestamp = MetricFamily(
        "pinguard_round_timestamp_seconds", .gauge,
        help: "When the last probe round finished.")
    /// The configured interval.
    public static let roundInterval = MetricFamily(
        "pinguard_round_interval_seconds", .gauge,
        help: "The configured probe interval (one round per interval); alerts scale their staleness thresholds with it.")
    /// This instance's shard of the targets.
    public static let shardIndex = MetricFamily(
        "pinguard_shard_index", .gauge,
        help: "This instance's shard of the targets (shard: or --shard I/N), 0-based; absent without sharding.")
    /// How many shards split the targets.
    public static let shardTotal = MetricFamily(
        "pinguard_shard_total", .gauge,
        help: "How many shards split the targets, as this instance was told; every instance of a job must say the same. Absent without sharding.")
    /// How late the last round started.
    public static let roundLateness = MetricFamily(
        "pinguard_round_lateness_seconds", .gauge,
        help: "Seconds the last probe round started after it was due (0 when on time; a round longer than the interval delays the next).")
    /// Process CPU.
    public static let processCPU = MetricFamily(
        "process_cpu_seconds_total", .counter,
        help: "Total user and system CPU time spent in seconds.")
    /// Open descriptors.
    public static let processOpenFDs = MetricFamily(
        "process_open_fds", .gauge,
        help: "Number of open file descriptors.")
    /// Descriptor limit.
    public static let processMaxFDs = MetricFamily(
        "process_max_fds", .gauge,
        help: "Maximum number of open file descriptors.")
    /// Virtual memory.
    public static let processVirtualMemory = MetricFamily(
        "process_virtual_memory_bytes", .gauge,
        help: "Virtual memory size in bytes.")
    /// Resident memory.
    public static let processResidentMemory = MetricFamily(
        "process_resident_memory_bytes", .gauge,
        help: "Resident memory size in bytes.")
    /// Start time.
    public static let processStartTime = MetricFamily(
        "process_start_time_seconds", .gauge,
        help: "Start time of the process since unix epoch in seconds.")
    /// Threads.
    public static let processThreads = MetricFamily(
        "process_threads", .gauge,
        help: "Number of OS threads in the process.")

    /// Every family, in the order /metrics writes them.
    public static let all: [MetricFamily] = [
        probeSuccess, probeDuration, probeTimestamp, tlsVersionInfo, chainTrusted,
        certNotAfter, certNotBefore, certInfo, chainCertInfo, chainEarliestExpiry,
        targetInfo, targetAddresses, targetAddressesSkipped, targetDistinctChains, addressPolicyAccept,
        policyAccept, policyDecisionInfo, pinMatched, pinHorizon, reservePins, pinSetExpiry,
        mtlsClientCertificateRequested, mtlsClientCertificatePresented, clientCertificateNotAfter,
        nextRenewal, ariWindowStart, ariWindowEnd, renewalRejectRatio, pinBreakage, renewalForecastInfo,
        tlsCipherInfo, tlsGroupInfo, ctSCTs, ctCompliant, certificateRevoked, situationInfo, situationDue, situationWords, caCertInfo, caCertNotAfter, caCertNotBefore,
        renewalsObserved, lastRenewalTimestamp, lastRenewalKeyReused, lastRenewalIssuerChanged, leafKeyFirstSeen, stateWritable,
        fileSuccess, fileChainTrusted, fileCertNotAfter, fileChainEarliestExpiry, filePolicyAccept, filePinHorizon, fileReservePins,
        backupPinCoverage, policyBundleValid, policyBundleInfo, policyLintFindings, ctLogListTimestamp, crlNextUpdate, crlFetchSuccess, buildInfo, configLastReloadSuccessful, configLastReloadSuccessTimestamp,
        targets, probesTotal, probeFailuresTotal, journalWriteFailuresTotal, roundDuration, roundTimestamp, roundInterval, roundLateness, shardIndex, shardTotal,
        processCPU, processOpenFDs, processMaxFDs, processVirtualMemory, processResidentMemory, processStartTime, processThreads,
    ]
}
