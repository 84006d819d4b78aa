import Foundation

/// Signed pin bundles in PinGuard's remote configuration layout, made by the `openssl` command line at test time:
/// an HMAC-SHA256 secret, an ECDSA P-256 key pair, one payload, and blobs with good, bad and missing signatures
/// for both schemes (docs/reference.md, Signed policy bundles).
public struct SignedBundleFiles: Sendable {
    /// Folder of the files.
    public let directory: URL

    /// A path in `directory`.
    public func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// The HMAC secret of ID `key-v1` (32 random bytes).
    public var hmacSecret: String { path("hmac.key") }
    /// The ECDSA P-256 public key of ID `pins-2026` (PEM).
    public var ecdsaPublicKey: String { path("ec.pub") }
    /// An RSA public key: not a P-256 key.
    public var rsaPublicKey: String { path("rsa.pub") }
    /// The signed payload bytes.
    public var payload: String { path("payload.json") }

    /// Blob names: `hmac-good`, `hmac-bad` (signed with another secret), `hmac-unknown-key` (secret ID `key-v9`),
    /// `ecdsa-der-good`, `ecdsa-raw-good` (raw r||s), `ecdsa-bad` (another key), `ecdsa-tampered` (payload changed
    /// after signing), `unsigned` (no signature), `untyped` (no signatureType), `garbage` (not JSON).
    public func blob(_ name: String) -> String { path("\(name).json") }

    /// Generates every file; `payload` is the JSON the blobs carry.
    public static func make(payload: String) throws -> SignedBundleFiles {
        let dir = try TemporaryDirectory.make("pinguard-bundles")
        try payload.write(to: dir.appendingPathComponent("payload.json"), atomically: true, encoding: .utf8)
        let tampered = payload.replacingOccurrences(of: "\"strict\"", with: "\"permissive\"")
        try tampered.write(to: dir.appendingPathComponent("payload-tampered.json"), atomically: true, encoding: .utf8)
        let o = OpenSSLTool.path
        let script = """
        set -e -o pipefail
        cd \(CommandRunner.quote(dir.path))
        head -c 32 /dev/urandom > hmac.key; head -c 32 /dev/urandom > other.key
        hex() { xxd -p -c 256 "$1"; }
        \(o) genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out ec.key 2>/dev/null
        \(o) pkey -in ec.key -pubout -out ec.pub
        \(o) genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out other-ec.key 2>/dev/null
        \(o) genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out rsa.key 2>/dev/null
        \(o) pkey -in rsa.key -pubout -out rsa.pub
        \(o) dgst -sha256 -mac HMAC -macopt hexkey:$(hex hmac.key) -binary -out hmac.sig payload.json
        \(o) dgst -sha256 -mac HMAC -macopt hexkey:$(hex other.key) -binary -out hmac-other.sig payload.json
        \(o) dgst -sha256 -sign ec.key -out ec.der payload.json
        \(o) dgst -sha256 -sign other-ec.key -out ec-other.der payload.json
        # DER ECDSA-Sig-Value -> raw r || s, each left-padded to 32 bytes (CryptoKit's rawRepresentation).
        raw=""
        for h in $(\(o) asn1parse -inform DER -in ec.der | awk -F: '/INTEGER/ {print $NF}'); do
          h=$(printf '%064s' "$h" | tr ' ' 0); raw="$raw${h: -64}"
        done
        printf '%s' "$raw" | xxd -r -p > ec.raw
        hmac='{"hmacSHA256":{"secretID":"key-v1"}}'; ecdsa='{"publicKey":{"keyID":"pins-2026"}}'
        blob() {  # out payload signature-file type-json
          local sig=""; [ -n "$3" ] && sig=",\\"signature\\":\\"$(base64 -w0 "$3")\\""
          local type=""; [ -n "$4" ] && type=",\\"signatureType\\":$4"
          printf '{"payload":"%s"%s%s}\\n' "$(base64 -w0 "$2")" "$sig" "$type" > "$1.json"
        }
        blob hmac-good payload.json hmac.sig "$hmac"
        blob hmac-bad payload.json hmac-other.sig "$hmac"
        blob hmac-unknown-key payload.json hmac.sig '{"hmacSHA256":{"secretID":"key-v9"}}'
        blob ecdsa-der-good payload.json ec.der "$ecdsa"
        blob ecdsa-raw-good payload.json ec.raw "$ecdsa"
        blob ecdsa-bad payload.json ec-other.der "$ecdsa"
        blob ecdsa-tampered payload-tampered.json ec.der "$ecdsa"
        blob unsigned payload.json "" "$hmac"
        blob untyped payload.json hmac.sig ""
        printf 'not json' > garbage.json
        test "$(wc -c < ec.raw)" -eq 64
        """
        let r = try CommandRunner.run("/bin/bash", ["-c", script])
        guard r.status == 0 else { throw HarnessError("making the signed bundles: \(r)") }
        return SignedBundleFiles(directory: dir)
    }

    /// A PinGuard payload (`RemoteConfigPayload` JSON) pinning `spki` (SPKI SHA-256, base64) for `pattern`.
    public static func payload(pattern: String, spki: String, backup: String? = nil) -> String {
        let pins = [#"{"type":"spki","hash":"\#(spki)","role":"primary","scope":"leaf"}"#]
            + (backup.map { [#"{"type":"spki","hash":"\#($0)","role":"backup"}"#] } ?? [])
        return #"{"version":1,"policySet":{"policies":[{"pattern":"\#(pattern)","policy":{"pins":[\#(pins.joined(separator: ","))],"failStrategy":"strict","requireSystemTrust":true,"allowSystemTrustFallback":false}}]}}"#
    }
}
