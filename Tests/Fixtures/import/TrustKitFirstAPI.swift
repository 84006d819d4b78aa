import TrustKit
import UIKit

@UIApplicationMain
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(_ application: UIApplication,
                     didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        let config: [String: Any] = [
            kTSKSwizzleNetworkDelegates: true,
            kTSKPinnedDomains: [
                "api.shop.example": [
                    kTSKIncludeSubdomains: true,
                    kTSKPublicKeyHashes: [
                        "OOp/9QsdNx9mjL8u1dO/bVoURz3wB/0XfUxzOoiES5k=",
                        "Wrrfe2EtODjDI/VP6ptwssbZgI8hzw++em7VFIT0144=",
                    ],
                ],
            ],
        ]
        TrustKit.initialize(withConfiguration: config)
        return true
    }
}
