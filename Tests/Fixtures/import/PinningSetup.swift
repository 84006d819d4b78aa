import Foundation
import TrustKit

// TrustKit configured in code: the same policy as policies/sources/trustkit-Info.plist.
private let apiPrimary = "V4zZ9zgOAvYJg7dA+kmk0t+zIYSW0pYWf/cITIu9JvU="
private let apiBackup: String = "kuSfssDcwQgR1zeaAWyuRb6/rAwifh8vmdDJto034ow="
let reportHost = "https://report.example.com"

final class PinningSetup {
    static func start() {
        let trustKitConfig: [String: Any] = [
            kTSKSwizzleNetworkDelegates: true,
            kTSKPinnedDomains: [
                "api.example.com": [
                    kTSKEnforcePinning: true,
                    kTSKExpirationDate: "2027-06-30",
                    kTSKPublicKeyHashes: [
                        apiPrimary,
                        apiBackup,
                    ],
                    kTSKReportUris: [reportHost + "/pin-failure"],
                ],
                "example.com": [
                    kTSKIncludeSubdomains: true,
                    kTSKPublicKeyHashes: ["O4MNGvlUsPWNQXXQK2cRWHhcyrNwvjd+gKhFdH2d5y4=",
                                          "rdkf8/jIQCpK2HHmPVNFczL7hjxJxCB3tjK38TxHXHg="],
                ],
                "status.example.com": [
                    kTSKExcludeSubdomainFromParentPolicy: true,
                ],
                "telemetry.example.net": [
                    kTSKEnforcePinning: false,
                    kTSKPublicKeyHashes: [
                        "exRdwjZsQL+GLZZUOzPYrjaaNhy14GbptjWoIt5+duc=",
                        "8m+eG+x5zMwPVEYeNyiTF7scyqQw3ZwBfTm3l+Miv78=",
                    ],
                ],
            ],
        ]
        TrustKit.initSharedInstance(withConfiguration: trustKitConfig)
    }
}
