import Foundation

/// The operator's shared secret. A server refuses to start with a key a client could guess or send
/// by accident: an unset `$KEY` in a deploy script expands to "", and an empty `X-Admin-Key:` header
/// would then match it.
public enum AdminKey {
    /// 16 characters: at least 64 bits even for a key of hex digits typed by a person.
    public static let minimumLength = 16

    /// Why `key` cannot be an admin key, or nil when it can.
    public static func problem(with key: String) -> String? {
        if key.isEmpty {
            return "the admin key is empty (an unset variable such as \"$KEY\"?); give --admin-key or SEATKIT_ADMIN_KEY "
                + "at least \(minimumLength) characters, or leave both unset for a generated key"
        }
        if key.utf8.count < minimumLength {
            return "the admin key has \(key.utf8.count) characters; it needs at least \(minimumLength)"
        }
        if key.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F || $0.value > 0x7E }) {
            return "the admin key must be printable ASCII without spaces (it travels in an HTTP header)"
        }
        return nil
    }
}
