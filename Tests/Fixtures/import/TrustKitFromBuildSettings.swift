import Foundation
import TrustKit

final class PinningBootstrap {
    func start(apiUrlString: String, mainPublicKey: String, backupPublicKey: String) {
        let trustKitConfig: [String: Any] = [
            kTSKSwizzleNetworkDelegates: false,
            kTSKPinnedDomains: [
                URL(string: apiUrlString)!.host!: [
                    kTSKIncludeSubdomains: false,
                    kTSKPublicKeyHashes: [mainPublicKey, backupPublicKey],
                ],
            ],
        ]
        TrustKit.initSharedInstance(withConfiguration: trustKitConfig)
    }
}
