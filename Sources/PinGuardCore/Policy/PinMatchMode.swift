/// How pins combine: any one match accepts, or every pin group needs its own match.
public enum PinMatchMode: String, Sendable, Codable {
    /// One matching pin accepts (PinGuard, TrustKit, OkHttp, Android, HPKP).
    case any
    /// Each distinct `group` needs at least one match (NSPinnedDomains with leaf and CA identities).
    case eachGroup = "each_group"
}
