import Foundation
import SeatDomain
import SeatMap
import SeatSecrets

/// A saved attendee as its buyer sees it: masked, with the id that names it in a hold's attendees.
public struct SavedAttendee: Sendable, Hashable {
    public var id: String
    public var name: String
    public var idType: String
    public var idNumber: String
}

/// Attendee books (常用观演人): a buyer's saved attendees, reused across orders without typing a document
/// again. SeatKit has no buyer accounts: a book is a capability, an unguessable token the buyer's app or
/// browser keeps (the store keeps its digest, as a hold token's); its entries are sealed like every
/// attendee and shown masked.
extension Inventory {
    /// The most attendees one book keeps (a family and friends; a scalper's list of IDs is not a book).
    public static let bookLimit = 20

    /// A new book's token (nothing is stored until an attendee is saved in it).
    public func newAttendeeBook() -> String { "ab_" + Self.randomIDAndToken(prefix: "").1 }

    func personalDataStore() throws(Refusal) -> any PersonalDataStore {
        guard let personal = store.personalData else { throw Refusal(.storeFailed, detail: "this store keeps no attendee books") }
        return personal
    }

    static func bookDigest(_ token: String) -> String { Secrets.tokenDigest(token) }

    /// The book's attendees, masked, oldest first (an unknown or empty book has none).
    public func attendeeBook(_ token: String) throws(Refusal) -> [SavedAttendee] {
        let entries: [(entry: String, sealed: String, at: Int64)]
        do { entries = try personalDataStore().bookEntries(book: Self.bookDigest(token)) } catch let r as Refusal { throw r } catch {
            throw Self.storeRefusal(error)
        }
        return entries.compactMap { e in
            personalData.open(e.sealed, context: "book").flatMap(AttendeeRecord.init(text:)).map {
                SavedAttendee(id: e.entry, name: PersonName.masked($0.name), idType: $0.idType, idNumber: IdentityDocument.mask($0.idNumber))
            }
        }
    }

    /// Saves an attendee in the book, checked as a hold's are (its document with its check digit);
    /// the same document again is the entry already there.
    public func saveToBook(_ token: String, _ person: AttendeeInput) throws(Refusal) -> SavedAttendee {
        let checked = try checkedRecord(person)
        let personal = try personalDataStore()
        let digest = Self.bookDigest(token)
        do {
            let entries = try personal.bookEntries(book: digest)
            let key = personalData.index(checked.document, purpose: "book")
            // The entry's id is the document's keyed hash in the book's scope: the same document is one entry.
            let entry = "at_" + String(personalData.index(digest + "\u{1F}" + key, purpose: "book-entry").prefix(16))
            if entries.contains(where: { $0.entry == entry }) {
                return SavedAttendee(
                    id: entry, name: PersonName.masked(checked.name), idType: checked.idType, idNumber: IdentityDocument.mask(checked.idNumber))
            }
            guard entries.count < Self.bookLimit else {
                throw Refusal(.purchaseLimit, detail: "an attendee book keeps at most \(Self.bookLimit) attendees: remove one first")
            }
            try personal.saveBookEntry(book: digest, entry: entry, sealed: personalData.seal(checked.text, context: "book"), at: clock())
            return SavedAttendee(id: entry, name: PersonName.masked(checked.name), idType: checked.idType, idNumber: IdentityDocument.mask(checked.idNumber))
        } catch let r as Refusal { throw r } catch { throw Self.storeRefusal(error) }
    }

    public func removeFromBook(_ token: String, entry: String) throws(Refusal) {
        let done: Bool
        do { done = try personalDataStore().deleteBookEntry(book: Self.bookDigest(token), entry: entry) } catch let r as Refusal { throw r } catch {
            throw Self.storeRefusal(error)
        }
        if !done { throw Refusal(.notFound, detail: "no attendee \(entry) in this book") }
    }

    /// The attendees of a request that name saved ones (`saved`), opened from the book into what a hold
    /// takes; a saved id the book does not have is a 422 naming it.
    public func resolveSaved(_ inputs: [AttendeeInput], saved: [Int: String], book token: String?) throws(Refusal) -> [AttendeeInput] {
        guard !saved.isEmpty else { return inputs }
        guard let token else { throw Refusal.invalid(path: "book", "give the attendee book's token with attendees saved in it") }
        let entries: [(entry: String, sealed: String, at: Int64)]
        do { entries = try personalDataStore().bookEntries(book: Self.bookDigest(token)) } catch let r as Refusal { throw r } catch {
            throw Self.storeRefusal(error)
        }
        var out = inputs
        for (k, id) in saved {
            guard let e = entries.first(where: { $0.entry == id }), let r = personalData.open(e.sealed, context: "book").flatMap(AttendeeRecord.init(text:))
            else { throw Refusal.invalid(path: "attendees[\(k)].saved", "no attendee \(id) in this book") }
            out[k] = AttendeeInput(seat: inputs[k].seat, name: r.name, idType: r.idType, idNumber: r.idNumber, phone: r.phone)
        }
        return out
    }

    /// An attendee checked as a hold's are (`checked`), as it is sealed.
    func checkedRecord(_ a: AttendeeInput) throws(Refusal) -> AttendeeRecord {
        let (checked, problems) = Self.checked(a, strictPhone: false)
        if problems.count == 1, problems[0].path == "idType" { throw Refusal.invalid(path: "idType", problems[0].message) }
        guard let first = problems.first else { return checked!.0 }
        throw Refusal(.invalidAttendee, detail: "\(first.path): \(first.message)", details: [.errors(problems)])
    }
}
