import Foundation
import SeatKitUI
import Testing

/// SeatKitUI builds only where UIKit exists; on Linux it must be an empty module, so every file of it
/// (and of the example app) must be wholly inside `#if canImport(UIKit)`, or, for a file that uses
/// SwiftUI, `#if canImport(SwiftUI) && canImport(UIKit)`. It stays small: logic belongs in the engine,
/// where it is tested. (scripts/check-uikit.sh type-checks the files themselves.)
@Suite struct SeatKitUIGuardTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func swiftFiles(under folder: String) -> [URL] {
        let base = root.appendingPathComponent(folder)
        let names = FileManager.default.enumerator(atPath: base.path)?.compactMap { $0 as? String } ?? []
        return names.filter { $0.hasSuffix(".swift") }.sorted().map { base.appendingPathComponent($0) }
    }

    /// The code lines of a file: what is left without blank lines and `//` comments.
    static func codeLines(_ url: URL) throws -> [String] {
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("//") }
    }

    @Test(arguments: ["Sources/SeatKitUI", "Examples/SeatPickerApp"])
    func everyFileIsWhollyInsideTheUIKitGuard(folder: String) throws {
        let files = Self.swiftFiles(under: folder)
        #expect(files.count >= 4, "\(folder) has its files")
        for file in files {
            let lines = try Self.codeLines(file)
            let guardLine = lines.contains("import SwiftUI") ? "#if canImport(SwiftUI) && canImport(UIKit)" : "#if canImport(UIKit)"
            #expect(lines.first == guardLine, "\(file.lastPathComponent) starts with the guard")
            #expect(lines.last == "#endif", "\(file.lastPathComponent) ends with the guard's #endif")
            // One guard around everything: no second top-level #if/#endif pair splits the file.
            let opens = lines.filter { $0.hasPrefix("#if") }.count, closes = lines.filter { $0 == "#endif" }.count
            #expect(opens == closes, "\(file.lastPathComponent) has balanced #if/#endif")
        }
    }

    /// Each adapter stays a thin one: 800 lines for the UIKit views (the ceiling before the SwiftUI
    /// ones came) and 150 for the door's scanner (camera, one read a code, the answer's panel: its
    /// decisions are the server's, or `SeatTickets`'), 920 for the SwiftUI views, which also do the
    /// scrolling UIKit gets from UIScrollView (drag, axis lock, fling; the easing itself is the engine's
    /// `ScrollGlide`), and since #50 draw the top gutter's strip as well (900 before it).
    @Test func eachAdapterStaysSmall() throws {
        var lines: [Bool: Int] = [:]
        for file in Self.swiftFiles(under: "Sources/SeatKitUI") {
            let text = try String(contentsOf: file, encoding: .utf8)
            lines[text.contains("import SwiftUI"), default: 0] += text.split(separator: "\n", omittingEmptySubsequences: false).count
        }
        #expect((300...950).contains(lines[false] ?? 0), "the UIKit views are \(lines[false] ?? 0) lines")
        #expect((300...920).contains(lines[true] ?? 0), "the SwiftUI views are \(lines[true] ?? 0) lines")
    }
}
