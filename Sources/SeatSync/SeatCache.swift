import Foundation

/// Where SeatSync keeps what it last knew: each venue's layout (with its ETag, so a relaunch revalidates
/// with a 304 instead of downloading it again), each show's summary and last availability (with its
/// version), and a live hold's token. With it a map opens offline, showing the last known state marked
/// stale, and a relaunched app finds its hold to confirm or release. An app may supply its own store
/// (the Keychain for tokens, its database for the rest); `DirectoryCache` keeps files in one directory.
/// Implementations are called from any thread.
public protocol SeatCache: Sendable {
    /// The bytes kept under `key`, or nil.
    func data(for key: String) -> Data?
    /// Keeps `data` under `key` (nil forgets it).
    func store(_ data: Data?, for key: String)
}

/// The keys SeatSync uses (an app's own store may map them as it likes).
enum CacheKey {
    static func layout(_ venue: String) -> String { "layout." + venue }
    static func show(_ id: String) -> String { "show." + id }
    static func availability(_ show: String) -> String { "availability." + show }
    static func hold(_ show: String) -> String { "hold." + show }
}

/// A `SeatCache` of files in one directory: one file a key, written whole (to a temporary file, then
/// renamed, so a crash leaves the old value or the new, never half) and readable by the user alone
/// (a hold token is a capability: whoever has it can buy or release the seats).
public final class DirectoryCache: SeatCache {
    public let directory: URL

    /// Creates the directory if it is missing.
    public init(directory: URL) throws {
        self.directory = directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    /// A file name for any key: letters, digits, '.', '-' and '_' as they are, anything else as `%XX`.
    func url(for key: String) -> URL {
        var name = ""
        for b in key.utf8 {
            let plain = (b >= 48 && b <= 57) || (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || b == 46 || b == 45 || b == 95
            name += plain ? String(UnicodeScalar(b)) : String(format: "%%%02X", b)
        }
        return directory.appendingPathComponent(name == "." || name == ".." ? "%2E" + name : name)
    }

    public func data(for key: String) -> Data? { try? Data(contentsOf: url(for: key)) }

    public func store(_ data: Data?, for key: String) {
        let target = url(for: key)
        guard let data else {
            try? FileManager.default.removeItem(at: target)
            return
        }
        let temporary = directory.appendingPathComponent(".\(UUID().uuidString).tmp")
        guard FileManager.default.createFile(atPath: temporary.path, contents: data, attributes: [.posixPermissions: 0o600]) else { return }
        if rename(temporary.path, target.path) != 0 { try? FileManager.default.removeItem(at: temporary) }
    }
}
