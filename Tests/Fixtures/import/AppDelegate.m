#import "AppDelegate.h"
#import <TrustKit/TrustKit.h>

// TrustKit configured in code: the same policy as policies/sources/trustkit-Info.plist.
static NSString * const kAPIBackupPin = @"kuSfssDcwQgR1zeaAWyuRb6/rAwifh8vmdDJto034ow=";
#define API_HOST @"api.example.com"

@implementation AppDelegate

- (BOOL)application:(UIApplication *)application didFinishLaunchingWithOptions:(NSDictionary *)launchOptions {
    NSDictionary *trustKitConfig = @{
        kTSKSwizzleNetworkDelegates: @YES,
        kTSKPinnedDomains: @{
            API_HOST: @{
                kTSKEnforcePinning: @(YES),
                kTSKExpirationDate: @"2027-06-30",
                kTSKPublicKeyHashes: @[
                    @"V4zZ9zgOAvYJg7dA+kmk0t+zIYSW0pYWf/cITIu9JvU=",
                    kAPIBackupPin,
                ],
                kTSKReportUris: @[@"https://report.example.com/pin-failure"],
            },
            @"example.com": @{
                kTSKIncludeSubdomains: @YES,
                kTSKPublicKeyHashes: @[@"O4MNGvlUsPWNQXXQK2cRWHhcyrNwvjd+gKhFdH2d5y4=",
                                       @"rdkf8/jIQCpK2HHmPVNFczL7hjxJxCB3tjK38TxHXHg="],
            },
            @"status.example.com": @{
                kTSKExcludeSubdomainFromParentPolicy: @YES,
            },
            @"telemetry.example.net": @{
                kTSKEnforcePinning: @NO,
                kTSKPublicKeyHashes: @[
                    @"exRdwjZsQL+GLZZUOzPYrjaaNhy14GbptjWoIt5+duc=",
                    @"8m+eG+x5zMwPVEYeNyiTF7scyqQw3ZwBfTm3l+Miv78=",
                ],
            },
        },
    };
    [TrustKit initSharedInstanceWithConfiguration:trustKitConfig];
    return YES;
}

@end
