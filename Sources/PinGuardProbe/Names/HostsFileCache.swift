import Foundation
import PinGuardFiles
#if canImport(Glibc)
import Glibc
#endif

/// The hosts file kept between lookups, as Go's resolver keeps it, instead of glibc reading the whole file
/// again for every name: a name the file holds is answered from the table when nsswitch.conf has glibc ask
/// the file first; any other name goes to getaddrinfo as before. Both files are checked (`stat`: device,
/// inode, size, modification time) at every lookup and read again when either changed.
final class HostsFileCache: @unchecked Sendable {
    /// The process's cache of /etc/hosts and /etc/nsswitch.conf.
    static let shared = HostsFileCache(hosts: "/etc/hosts", nsswitch: "/etc/nsswitch.conf")

    private struct Stamp: Equatable {
        var device: UInt64, inode: UInt64, size: Int64, seconds: Int, nanoseconds: Int
    }

    private let hostsPath: String
    private let nsswitchPath: String
    private let lock = NSLock()
    private var stamps: (hosts: Stamp?, nsswitch: Stamp?)?
    private var table: HostsTable?

    init(hosts: String, nsswitch: String) {
        hostsPath = hosts
        nsswitchPath = nsswitch
    }

    /// The hosts file's addresses of `name`, with `port`; nil when getaddrinfo must answer (the file does
    /// not hold the name, glibc does not ask it first, or `single` and the file gives several addresses,
    /// whose order only getaddrinfo's sorting decides).
    func addresses(of name: String, port: Int, single: Bool) -> [ResolvedAddress]? {
        guard let entries = current()?.addresses(of: name), !entries.isEmpty, !single || entries.count == 1 else { return nil }
        return entries.map { ResolvedAddress(entry: $0, port: port) }
    }

    /// The table in force: read again when either file changed; nil when glibc does not ask the file first.
    private func current() -> HostsTable? {
        let now = (hosts: Self.stamp(hostsPath), nsswitch: Self.stamp(nsswitchPath))
        lock.lock()
        defer { lock.unlock() }
        if let s = stamps, s.hosts == now.hosts, s.nsswitch == now.nsswitch { return table }
        stamps = now
        table = now.hosts != nil && NameServiceSwitch.hostsFileFirst(Self.text(nsswitchPath))
            ? (try? RegularFile.read(hostsPath, maxBytes: 64 << 20)).map { HostsTable($0) } : nil
        return table
    }

    private static func stamp(_ path: String) -> Stamp? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return Stamp(device: UInt64(st.st_dev), inode: UInt64(st.st_ino), size: Int64(st.st_size),
                     seconds: st.st_mtim.tv_sec, nanoseconds: st.st_mtim.tv_nsec)
    }

    private static func text(_ path: String) -> String {
        (try? RegularFile.read(path, maxBytes: 1 << 20)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }
}

extension ResolvedAddress {
    /// The socket address of a hosts-file entry and a port, as getaddrinfo fills it.
    init(entry: HostsTable.Entry, port: Int) {
        let port = in_port_t(UInt16(truncatingIfNeeded: port).bigEndian)
        if entry.family == AF_INET6 {
            var sa = sockaddr_in6()
            sa.sin6_family = sa_family_t(AF_INET6)
            sa.sin6_port = port
            withUnsafeMutableBytes(of: &sa.sin6_addr) { $0.copyBytes(from: entry.bytes) }
            self.init(family: AF_INET6, socketAddress: sa)
        } else {
            var sa = sockaddr_in()
            sa.sin_family = sa_family_t(AF_INET)
            sa.sin_port = port
            withUnsafeMutableBytes(of: &sa.sin_addr) { $0.copyBytes(from: entry.bytes) }
            self.init(family: AF_INET, socketAddress: sa)
        }
    }

    /// `address` (a `sockaddr_in` or `sockaddr_in6`) in a `sockaddr_storage`.
    private init<Address>(family: Int32, socketAddress address: Address) {
        var storage = sockaddr_storage()
        withUnsafeMutableBytes(of: &storage) { dst in withUnsafeBytes(of: address) { dst.copyMemory(from: $0) } }
        self.init(family: family, storage: storage, length: socklen_t(MemoryLayout<Address>.size))
    }
}
