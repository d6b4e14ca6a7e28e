import Foundation
import SeatServer
import SeatServerTestSupport
import Testing

/// Which database a test runs on is never guessed: two "PostgreSQL" crash tests once ran with no
/// server's URL, were given `?schema=t_…` as their store, and their servers shared one SQLite file of
/// that name in the working directory (committed at the repository's root) — and passed.
@Suite struct StoreLocationTests {
    @Test func aPostgresStoreWithoutAServerIsAFailureNotAFile() throws {
        let directory = FileManager.default.temporaryDirectory
        for missing in [nil, "", "?schema=x", "sqlite:x.db"] as [String?] {
            #expect(throws: StoreBackend.MissingPostgres.self, "server URL \(missing ?? "nil")") {
                try StoreBackend.postgres.freshStore(in: directory, postgresURL: missing)
            }
        }
        let url = try StoreBackend.postgres.freshStore(in: directory, postgresURL: "postgresql://u@127.0.0.1:5432/db")
        #expect(url.hasPrefix("postgresql://u@127.0.0.1:5432/db?schema=t_"))
        #expect(try StoreBackend.sqlite.freshStore(in: directory, postgresURL: nil).hasPrefix("sqlite:/"))
    }

    @Test(arguments: ["?schema=t_9a7be0dd5b28432f", "sqlite:?schema=t_9a7be0dd5b28432f", "sqlite:/tmp/x.db?mode=memory"])
    func theServerRefusesAQueryForASQLitePath(store: String) throws {
        var options = SeatServerApp.Options(adminKey: TestServer.adminKey)
        options.port = 0
        options.store = store
        let before = Set((try? FileManager.default.contentsOfDirectory(atPath: FileManager.default.currentDirectoryPath)) ?? [])
        do {
            _ = try SeatServerApp(options: options)
            Issue.record("\(store) was opened as a SQLite file")
        } catch {
            #expect("\(error)".contains("a SQLite path has no \"?\""), "\(error)")
        }
        let after = Set((try? FileManager.default.contentsOfDirectory(atPath: FileManager.default.currentDirectoryPath)) ?? [])
        #expect(after.subtracting(before).filter { $0.hasPrefix("?") }.isEmpty, "no file was made in the working directory")
    }
}
