# SPDX-License-Identifier: Apache-2.0
"""The series prometheus_e2e_check.py allows to be absent in the demo, each with the reason."""

# Series legitimately absent in the demo, with the reason.
ABSENT_OK = {
    "pinguard_pin_set_expiry_timestamp_seconds": "no demo policy set has `expires`",
    "pinguard_target_info": "the demo has no target_files (no target labels)",
    "pinguard_mtls_client_certificate_presented": "no demo server asks for a client certificate",
    "pinguard_client_certificate_not_after_timestamp_seconds": "no demo target has a client identity",
    "pinguard_policy_bundle_valid": "the demo has no policy_bundles",
    "pinguard_policy_bundle_info": "the demo has no policy_bundles",
    "pinguard_last_renewal_timestamp_seconds": "no demo target is renewed while the test runs (scripts/test-renewals.sh)",
    "pinguard_last_renewal_key_reused": "no demo target is renewed while the test runs (scripts/test-renewals.sh)",
    "pinguard_last_renewal_issuer_changed": "no demo target is renewed while the test runs (scripts/test-renewals.sh)",
    "pinguard_ct_scts": "no demo policy set checks CT (the demo's CA is private, which CT exempts)",
    "pinguard_ct_compliant": "no demo policy set checks CT (the demo's CA is private, which CT exempts)",
    "pinguard_address_policy_accept": "every demo target has one address (its verdict is pinguard_policy_accept)",
    "pinguard_target_distinct_chains": "every demo target has one address",
    "pinguard_target_addresses_skipped": "every demo target has one address and none is skipped",
    "pinguard_mtls_client_certificate_requested": "no demo server asks for a client certificate and no demo target has a client identity",
    # Written only away from their usual value (docs/reference.md, Series budget).
    "pinguard_target_addresses": "every demo target has one address (its pinguard_probe_success series says so)",
    "pinguard_chain_trusted": "written as 0 only, for a chain that fails trust",
    "pinguard_renewals_observed_total": "no demo target is renewed while the test runs (scripts/test-renewals.sh)",
    "pinguard_leaf_key_first_seen_timestamp_seconds": "no demo target keeps a key across a renewal while the test runs",
    "pinguard_renewal_reject_ratio": "written above 0 only, for a set the next renewal may break",
    "pinguard_renewal_forecast_info": "written when the forecast knows more than the served chain (the demo declares no renewal)",
    "pinguard_tls_cipher_info": "written for a cipher other than TLS_AES_256_GCM_SHA384",
    "pinguard_tls_group_info": "written for a group other than X25519",
    # The authorities' word: the demo's private CA has no ACME directory and names no CRL distribution point.
    "pinguard_ari_window_start_timestamp_seconds": "the demo's CA gives no renewal window (no ACME directory)",
    "pinguard_ari_window_end_timestamp_seconds": "the demo's CA gives no renewal window (no ACME directory)",
    "pinguard_certificate_revoked": "the demo's certificates name no CRL distribution point",
    "pinguard_crl_next_update_timestamp_seconds": "the demo's certificates name no CRL distribution point",
    "pinguard_crl_fetch_success": "the demo's certificates name no CRL distribution point",
    # One instance, not sharded (the sharding series are checked with promtool: contrib/prometheus/tests/fleet.test.yml).
    "pinguard_shard_index": "the demo is one instance, not sharded",
    "pinguard_shard_total": "the demo is one instance, not sharded",
}
