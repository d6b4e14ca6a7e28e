#if canImport(SwiftUI) && canImport(UIKit)
import CollectionLayout
import Foundation
import SeatCanvas
import SeatJSON
import SeatKitUI
import SeatMap
import SeatSync
import SwiftUI

/// The same app in SwiftUI (pushed from the shows screen's "SwiftUI" button): show times in a
/// `SeatCarousel`, the chosen show's `ZoomableSeatMap` bound to a `SeatSession` (taps hold seats at
/// once, refusals roll back with a message, other buyers' seats turn grey live), and the price matrix
/// in a `SeatGrid` with frozen headers.
struct SwiftUIShowsScreen: View {
    let api: SeatAPIClient
    @State private var shows: [JSONObject] = []
    @State private var opened: OpenedShow?
    @State private var chosen: Set<SeatIndex> = []
    @State private var message = ""

    var body: some View {
        VStack(alignment: .leading, spacing: 8) {
            SeatCarousel(count: shows.count, preset: .cardCarousel) { index in ShowCard(show: shows[index]) }
                .onSelect { index in Task { await open(index) } }
                .frame(height: 136)
            if let opened {
                ZoomableSeatMap(canvas: opened.canvas, session: opened.session, state: opened.state, language: .english, selection: $chosen)
                    .onSessionMessage { message = $0.english }
                HStack {
                    Text(message).font(.footnote).lineLimit(2)
                    Spacer()
                    Button("Buy \(chosen.count)") { Task { await buy(opened.session) } }
                }
                .padding(.horizontal, 16)
            } else {
                PriceMatrix(shows: shows)
            }
        }
        .task { shows = (try? await api.shows()) ?? [] }
    }

    func open(_ index: Int) async {
        guard index < shows.count, let id = shows[index]["id"]?.stringValue else { return }
        if let previous = opened { await previous.session.stopLiveUpdates() }
        guard let session = try? await SeatSession(api: api, show: id) else {
            message = "Cannot reach the server"
            return
        }
        let state = await session.state
        opened = OpenedShow(session: session, state: state, canvas: SeatCanvas(layout: state.layout))
        await session.startLiveUpdates()
    }

    func buy(_ session: SeatSession) async {
        let order = await session.confirm(orderRef: "SWIFTUI-\(UUID().uuidString.prefix(8))")
        message = order.map { "Bought \($0.seats.joined(separator: ", ")) for ¥\($0.total)" } ?? "Nothing to buy"
    }
}

/// A show being picked: its session, the state it opened with and the engine's picture of its venue.
struct OpenedShow {
    let session: SeatSession
    let state: SessionState
    let canvas: SeatCanvas
}

/// A show-time card: start and free seats.
struct ShowCard: View {
    let show: JSONObject

    var body: some View {
        VStack(alignment: .leading, spacing: 4) {
            Text(show["startsAt"]?.stringValue ?? "").font(.headline)
            Text("\(show["seats"]?.objectValue?["available"]?.intValue ?? 0) free").font(.subheadline)
        }
        .padding(12)
        .frame(maxWidth: .infinity, maxHeight: .infinity, alignment: .topLeading)
        .background { RoundedRectangle(cornerRadius: 12).fill(Color(.sRGB, white: 0.95)) }
    }
}

/// Shows down the frozen first column, price categories across the frozen first row.
struct PriceMatrix: View {
    let shows: [JSONObject]

    var categories: [String] {
        Array(Set(shows.flatMap { $0["prices"]?.objectValue?["categories"]?.objectValue?.keys.map { $0 } ?? [] })).sorted()
    }

    var body: some View {
        let categories = categories
        SeatGrid(
            rowHeights: Array(repeating: 44, count: shows.count + 1),
            columnWidths: [140] + Array(repeating: 96, count: categories.count)
        ) { cell in
            Text(title(cell, categories))
                .font(.footnote)
                .frame(maxWidth: .infinity, maxHeight: .infinity)
                .background(cell.row == 0 || cell.column == 0 ? Color(.sRGB, white: 0.93) : Color.white)
        }
    }

    func title(_ cell: GridCell, _ categories: [String]) -> String {
        switch (cell.row, cell.column) {
        case (0, 0): return "Show"
        case (0, let c): return categories[c - 1]
        case (let r, 0): return shows[r - 1]["id"]?.stringValue ?? ""
        case (let r, let c): return shows[r - 1]["prices"]?.objectValue?["categories"]?.objectValue?[categories[c - 1]]?.stringValue ?? "–"
        }
    }
}
#endif
