#import "AppDelegate.h"
#import <TrustKit/TrustKit.h>

#define SHOP_API_HOST @"api.shop.example"

@implementation AppDelegate

- (BOOL)application:(UIApplication *)application didFinishLaunchingWithOptions:(NSDictionary *)launchOptions {
    NSDictionary *config = @{
        kTSKSwizzleNetworkDelegates: @YES,
        kTSKPinnedDomains: @{
            SHOP_API_HOST: @{
                kTSKIncludeSubdomains: @YES,
                kTSKPublicKeyHashes: @[
                    @"OOp/9QsdNx9mjL8u1dO/bVoURz3wB/0XfUxzOoiES5k=",
                    @"Wrrfe2EtODjDI/VP6ptwssbZgI8hzw++em7VFIT0144=",
                ],
            },
        },
    };
    [TrustKit initializeWithConfiguration:config];
    return YES;
}

@end
