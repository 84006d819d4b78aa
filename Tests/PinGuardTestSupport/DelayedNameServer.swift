import Foundation

/// A name server that answers every A query with 127.0.0.1 (and every other query with no records) after a
/// random delay in a range (UDP 127.0.0.10:53, needs root), with a resolv.conf pointing at it for
/// `scripts/with-journald.sh --resolv-conf`: lookups that finish while their caller is between two waits.
public final class DelayedNameServer: @unchecked Sendable {
    /// The address it listens on.
    public static let address = "127.0.0.10"
    /// The resolv.conf to bind over /etc/resolv.conf.
    public let resolvConf: URL
    private let process: ChildProcess

    /// Starts the server answering after `delay` (seconds, uniformly at random); waits (bounded) until bound.
    public init(delay: ClosedRange<Double>) throws {
        let dir = try TemporaryDirectory.make("pinguard-delayed-dns")
        resolvConf = dir.appendingPathComponent("resolv.conf")
        let log = dir.appendingPathComponent("server.log")
        try "nameserver \(Self.address)\noptions timeout:5 attempts:1\n".write(to: resolvConf, atomically: true, encoding: .utf8)
        let script = """
        import random, socket, struct, threading
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.bind(("\(Self.address)", 53))
        print("ready", flush=True)
        answered = 0
        def answer(query, peer):
            global answered
            qid, = struct.unpack(">H", query[:2])
            end = 12
            while query[end] != 0:
                end += query[end] + 1
            qtype, = struct.unpack(">H", query[end + 1:end + 3])
            question = query[12:end + 5]
            records = b""
            if qtype == 1:
                records = b"\\xc0\\x0c" + struct.pack(">HHIH", 1, 1, 60, 4) + bytes([127, 0, 0, 1])
            header = struct.pack(">HHHHHH", qid, 0x8180, 1, 1 if records else 0, 0, 0)
            s.sendto(header + question + records, peer)
            answered += 1
            if answered % 100 == 0:
                print("answered", answered, flush=True)
        while True:
            query, peer = s.recvfrom(4096)
            threading.Timer(random.uniform(\(delay.lowerBound), \(delay.upperBound)), answer, (query, peer)).start()
        """
        process = try NameServerProcess.start(script, log: log, what: "delayed name server")
    }

    deinit { process.stop() }

    /// What the server printed (how many answers it sent, by hundreds).
    public var output: String { process.log }

    /// Stops the server.
    public func stop() { process.stop() }
}
