/// Text made safe for one place in SQL, each character looked at once (no statement is assembled by
/// replacing parts of another: the schema is in `Migrations/*.sql`, and every value else is a bound
/// parameter; these are for the few places a value is written into SQL text itself).
enum SQLText {
    /// `text` with each character in `escapes` written as its escape, the rest as it is.
    /// - Complexity: O(n) in the text's length.
    static func escaping(_ text: String, _ escapes: [Character: String]) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for ch in text {
            if let e = escapes[ch] { out += e } else { out.append(ch) }
        }
        return out
    }

    /// A quoted identifier (`"schema"`): a double quote doubled.
    static func identifier(_ name: String) -> String { "\"" + escaping(name, ["\"": "\"\""]) + "\"" }

    /// A string literal's body (`'…'`): a single quote doubled.
    static func literal(_ text: String) -> String { escaping(text, ["'": "''"]) }

    /// An element of an array literal (`{"a","b"}`): backslash and double quote escaped.
    static func arrayElement(_ text: String) -> String { "\"" + escaping(text, ["\\": "\\\\", "\"": "\\\""]) + "\"" }

    /// A `LIKE` pattern's literal part (with `ESCAPE '\'`): backslash, `%` and `_` escaped.
    static func likeLiteral(_ text: String) -> String { escaping(text, ["\\": "\\\\", "%": "\\%", "_": "\\_"]) }
}
