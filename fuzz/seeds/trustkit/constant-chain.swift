import TrustKit
struct K {
    static let C0: String = "aaaaaaaa"
    static let C1: String = C0 + C0
    static let C2: String = C1 + C1
    static let C3: String = C2 + C2
    static let C4: String = C3 + C3
    static let C5: String = C4 + C4
    static let C6: String = C5 + C5
    static let C7: String = C6 + C6
    static let C8: String = C7 + C7
    static let C9: String = C8 + C8
    static let C10: String = C9 + C9
    static let C11: String = C10 + C10
    static let C12: String = C11 + C11
    static let C13: String = C12 + C12
    static let C14: String = C13 + C13
    static let C15: String = C14 + C14
    static let C16: String = C15 + C15
    static let C17: String = C16 + C16
    static let C18: String = C17 + C17
    static let C19: String = C18 + C18
    static let C20: String = C19 + C19
}
let backup = "kuSfssDcwQgR1zeaAWyuRb6/rAwifh8vmdDJto034ow="
let config: [String: Any] = [
    kTSKSwizzleNetworkDelegates: false,
    kTSKPinnedDomains: [
        "api.example.com": [kTSKIncludeSubdomains: true, kTSKPublicKeyHashes: [K.C20, backup, "V4zZ9zgOAvYJg7dA+kmk0t+zIYSW0pYWf/cITIu9JvU="]],
    ],
]
TrustKit.initSharedInstance(withConfiguration: config)
