#import <TrustKit/TrustKit.h>
#define C0 @"aaaaaaaa"
#define C1 C0 + C0
#define C2 C1 + C1
#define C3 C2 + C2
#define C4 C3 + C3
#define C5 C4 + C4
#define C6 C5 + C5
#define C7 C6 + C6
#define C8 C7 + C7
#define C9 C8 + C8
#define C10 C9 + C9
#define C11 C10 + C10
#define C12 C11 + C11
#define C13 C12 + C12
#define C14 C13 + C13
#define C15 C14 + C14
#define C16 C15 + C15
#define C17 C16 + C16
#define C18 C17 + C17
#define C19 C18 + C18
#define C20 C19 + C19
static NSString * const kBackup = @"kuSfssDcwQgR1zeaAWyuRb6/rAwifh8vmdDJto034ow=";
NSDictionary *c = @{kTSKSwizzleNetworkDelegates: @NO, kTSKPinnedDomains: @{@"api.example.com": @{kTSKEnforcePinning: @(YES), kTSKPublicKeyHashes: @[C20, kBackup, @"V4zZ9zgOAvYJg7dA+kmk0t+zIYSW0pYWf/cITIu9JvU="]}}};
[TrustKit initSharedInstanceWithConfiguration:c];
