import CCrypto
import Foundation

/// The keys that keep buyers' personal data (names, identity documents, phones) out of the store in the
/// clear: a copy of the database (a backup, a stolen disk, a read-only login) holds none of it readable.
///
/// - **Sealing**: AES-256-GCM under the newest `seal` key, a fresh 96-bit nonce each time, the row's
///   context (its show) as associated data, so a sealed value moved to another row does not open.
///   Written `pd1.KEYID.BASE64` (nonce, ciphertext, tag): every listed key opens what it sealed, so a
///   new key is added first and the old one dropped once `seatkit personal-data reseal` has run.
/// - **Lookups**: a keyed hash (HMAC-SHA-256 under the `index` key, 128 bits, base64url) of a value in
///   its purpose, so "one ID once per show" and "find the order by phone" compare hashes and decrypt
///   nothing. Without the key a hash is no use to a guesser (an ID card number has about 2^33 likely
///   values: a bare SHA-256 of one is found in minutes).
///
/// The file (`--personal-data-keys FILE`, made by `seatkit personal-data new-keys`): a line a key,
/// `index BASE64` once and `seal ID BASE64` one or more times, the first `seal` line sealing; `#` comments.
/// Immutable once made; any thread.
public struct PersonalDataKeys: Sendable {
    public struct Problem: Error, Sendable, CustomStringConvertible {
        public var line: Int
        public var message: String
        public var description: String { line > 0 ? "line \(line): \(message)" : message }
    }

    let indexKey: [UInt8]
    /// Newest first: the first seals.
    let sealKeys: [(id: String, key: [UInt8])]
    /// Whence the keys came, for the server's banner: a file, or drawn from the admin key.
    public let origin: String

    /// The keys in a file's text; every problem names its line.
    public init(file text: String, path: String) throws(Problem) {
        var index: [UInt8]?, seals: [(String, [UInt8])] = []
        for (k, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let parts = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            func key(_ b64: String) throws(Problem) -> [UInt8] {
                guard let data = Data(base64Encoded: b64), data.count == 32 else {
                    throw Problem(line: k + 1, message: "a key is 32 bytes in base64 (44 characters)")
                }
                return Array(data)
            }
            switch (parts.first, parts.count) {
            case ("index", 2):
                guard index == nil else { throw Problem(line: k + 1, message: "one index key: a second one would make every lookup miss") }
                index = try key(parts[1])
            case ("seal", 3):
                guard parts[1].range(of: #"^[A-Za-z0-9_-]{1,16}$"#, options: .regularExpression) != nil else {
                    throw Problem(line: k + 1, message: "a seal key's id is 1 to 16 letters, digits, - or _")
                }
                guard !seals.contains(where: { $0.0 == parts[1] }) else { throw Problem(line: k + 1, message: "seal key \(parts[1]) is listed twice") }
                seals.append((parts[1], try key(parts[2])))
            default:
                throw Problem(line: k + 1, message: "expected `index BASE64` or `seal ID BASE64`")
            }
        }
        guard let index else { throw Problem(line: 0, message: "\(path) has no `index` line") }
        guard !seals.isEmpty else { throw Problem(line: 0, message: "\(path) has no `seal` line") }
        indexKey = index; sealKeys = seals; origin = path
    }

    /// Keys drawn from a server secret (the admin key): what a server started without a keys file uses,
    /// so a demo keeps nothing in the clear either. Rotating that secret then loses the data: a real
    /// deployment gives a file.
    public init(derivedFrom secret: String) {
        let s = Array(secret.utf8)
        indexKey = HMACSHA256.code(key: s, message: Array("seatkit personal data index v1".utf8))
        sealKeys = [("admin", HMACSHA256.code(key: s, message: Array("seatkit personal data seal v1".utf8)))]
        origin = "drawn from the admin key"
    }

    /// A new file's text: a fresh index key and one seal key named by `id`.
    public static func newFile(sealID: String) -> String {
        func fresh() -> String {
            var g = SystemRandomNumberGenerator()
            return Data((0..<32).map { _ in g.next() as UInt8 }).base64EncodedString()
        }
        return """
            # SeatKit personal-data keys (docs/REALNAME.md). Keep this file off the database's disks and backups.
            # The first `seal` line seals new data; every `seal` line opens what it sealed. Never change `index`.
            index \(fresh())
            seal \(sealID) \(fresh())

            """
    }

    /// The id of the key new data is sealed under.
    public var currentSealID: String { sealKeys[0].id }

    /// `plain` sealed for a row of `context`.
    /// - Complexity: O(plain), one AES-GCM pass (~1 µs for an attendee).
    public func seal(_ plain: String, context: String) -> String {
        // From the thread's buffer of the kernel's generator: a getrandom(2) call a seal was a quarter of it.
        let nonce = [UInt8](unsafeUninitializedCapacity: 12) { out, count in
            guard seatkit_random_bytes(out.baseAddress, 12) == 1 else { fatalError("the kernel's random generator failed") }
            count = 12
        }
        let sealed = AES256GCM.sealWithNonce(Array(plain.utf8), key: sealKeys[0].key, nonce: nonce, associatedData: Array(context.utf8)) ?? nonce
        return "pd1." + sealKeys[0].id + "." + Self.base64(sealed)
    }

    /// The plain text of a sealed value of `context`; nil when it is not one (sealed under a key no
    /// longer listed, for another row, or changed).
    public func open(_ sealed: String, context: String) -> String? {
        let parts = sealed.split(separator: ".", maxSplits: 2)
        guard parts.count == 3, parts[0] == "pd1", let key = sealKeys.first(where: { $0.id == parts[1] })?.key,
            let bytes = Data(base64Encoded: String(parts[2])), bytes.count >= 28
        else { return nil }
        let all = Array(bytes)
        return AES256GCM.open(Array(all[12...]), key: key, nonce: Array(all[..<12]), associatedData: Array(context.utf8))
            .map { String(decoding: $0, as: UTF8.self) }
    }

    /// Whether `sealed` is under an older key than the current one (`reseal` rewrites it).
    public func isStale(_ sealed: String) -> Bool { !sealed.hasPrefix("pd1." + sealKeys[0].id + ".") }

    /// Whether `text` is a sealed value at all (rows from before sealing are plain).
    public static func isSealed(_ text: String) -> Bool { text.hasPrefix("pd1.") }

    /// The keyed hash of `value` for `purpose` (`id`, `phone`, `phone-tail`, `name`): 22 characters of
    /// base64url, 128 bits (the store compares them; nobody can compute one without the index key).
    /// - Complexity: O(value).
    public func index(_ value: String, purpose: String) -> String {
        let code = HMACSHA256.code(key: indexKey, message: Array((purpose + "\u{1F}" + value).utf8))
        return Self.base64url(code.prefix(16))
    }

    /// Standard base64 with padding (what `Data(base64Encoded:)` reads back), written directly: Foundation's
    /// encoder through `Data` was a fifth of sealing an attendee.
    static func base64(_ bytes: [UInt8]) -> String {
        let total = (bytes.count + 2) / 3 * 4
        return String(unsafeUninitializedCapacity: total) { out in
            bytes.withUnsafeBufferPointer { input in
                base64Alphabet.withUnsafeBufferPointer { alphabet in
                    var i = 0, o = 0
                    while i + 3 <= input.count {
                        let v = Int(input[i]) << 16 | Int(input[i + 1]) << 8 | Int(input[i + 2])
                        out[o] = alphabet[v >> 18 & 63]; out[o + 1] = alphabet[v >> 12 & 63]
                        out[o + 2] = alphabet[v >> 6 & 63]; out[o + 3] = alphabet[v & 63]
                        i += 3; o += 4
                    }
                    let left = input.count - i
                    if left > 0 {
                        let v = Int(input[i]) << 16 | (left == 2 ? Int(input[i + 1]) << 8 : 0)
                        out[o] = alphabet[v >> 18 & 63]; out[o + 1] = alphabet[v >> 12 & 63]
                        out[o + 2] = left == 2 ? alphabet[v >> 6 & 63] : 61; out[o + 3] = 61
                    }
                }
            }
            return total
        }
    }

    static let base64Alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Unpadded base64url, written directly: Foundation's encoder and three replacements were most of a
    /// lookup's cost (a hold of 4 attendees makes 4 of them).
    static func base64url(_ bytes: ArraySlice<UInt8>) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var buffer = 0, bits = 0
        for b in bytes {
            buffer = (buffer << 8) | Int(b)
            bits += 8
            while bits >= 6 {
                bits -= 6
                out.append(alphabet[(buffer >> bits) & 63])
            }
        }
        if bits > 0 { out.append(alphabet[(buffer << (6 - bits)) & 63]) }
        return String(decoding: out, as: UTF8.self)
    }

    /// A key drawn from the index key for another use (the door's per-show check of an ID against a
    /// ticket), so that use never learns the index key itself.
    public func derivedKey(_ purpose: String) -> [UInt8] { HMACSHA256.code(key: indexKey, message: Array(("derive\u{1F}" + purpose).utf8)) }
}
