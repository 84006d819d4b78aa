/// A `basic_auth_users` hash as bcrypt writes it: `$2a$`, `$2b$` or `$2y$`, a two-digit cost, a 22-character
/// salt and a 31-character hash in bcrypt's base64 alphabet (`./A-Za-z0-9`).
///
/// The salt must be canonical (its last character one of `.Oeu`, since only 128 of its 132 bits are used):
/// bcrypt rewrites any other salt, so a hash with one could never match and the user could never log in.
/// The cost must lie in `costs`: each unremembered check runs 2^cost rounds (cost 12 takes about 0.25 s on
/// one core here), and a scrape must not wait for much more.
struct BcryptHash: Sendable, Equatable {
    /// The costs a hash may have.
    static let costs = 4...12
    static let alphabet = Set("./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)

    /// The hash text.
    let text: String
    /// Its cost (log2 of the rounds).
    let cost: Int

    /// Checks `text`; the error says what is wrong without echoing it.
    static func parse(_ text: String) -> Result<BcryptHash, BcryptHashError> {
        let bytes = Array(text.utf8)
        guard bytes.count == 60, ["$2a$", "$2b$", "$2y$"].contains(where: text.hasPrefix), bytes[6] == UInt8(ascii: "$") else {
            return .failure(.notBcrypt)
        }
        guard let cost = Int(String(decoding: bytes[4..<6], as: UTF8.self)), bytes[4..<6].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            return .failure(.notBcrypt)
        }
        guard costs.contains(cost) else { return .failure(.cost(cost)) }
        guard bytes[7...].allSatisfy(alphabet.contains) else { return .failure(.alphabet) }
        guard Set(".Oeu".utf8).contains(bytes[28]) else { return .failure(.salt) }
        return .success(BcryptHash(text: text, cost: cost))
    }

    /// A hash that no password matches, of `cost`: unknown users are checked against it, so that their
    /// answer costs the same bcrypt work as a known user's.
    static func dummy(cost: Int) -> String {
        let digits = cost < 10 ? "0\(cost)" : "\(cost)"
        return "$2b$\(digits)$" + String(repeating: "O", count: 22) + String(repeating: ".", count: 31)
    }
}

/// Why a `basic_auth_users` value is not a usable bcrypt hash.
enum BcryptHashError: Error, Equatable, CustomStringConvertible {
    case notBcrypt, cost(Int), alphabet, salt

    var description: String {
        switch self {
        case .notBcrypt:
            return "not a bcrypt hash (expected $2a$, $2b$ or $2y$, a two-digit cost, 53 characters; make one with `htpasswd -nBC 10 \"\" | tr -d ':\\n'`)"
        case .cost(let c):
            return "bcrypt cost \(c) is outside \(BcryptHash.costs.lowerBound)-\(BcryptHash.costs.upperBound) (each check of a higher cost takes too long for a scrape; 10 is usual)"
        case .alphabet: return "the bcrypt salt or hash holds a character outside ./A-Za-z0-9"
        case .salt: return "the bcrypt salt is not canonical (its 22nd character must be one of . O e u): no password could ever match it"
        }
    }
}
