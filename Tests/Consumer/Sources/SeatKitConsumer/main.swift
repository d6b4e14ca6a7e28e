// What an app writes: a main-actor view model fed by a session's streams, engine work off the main
// actor with its results sent back, the cache and the client shared between tasks. It only has to
// compile without a warning in Swift 6 mode; it is not run.
import CollectionLayout
import Foundation
import SeatCanvas
import SeatMap
import SeatSync

@MainActor final class PickerModel {
    private(set) var state: SessionState?
    private(set) var frame: DisplayList?
    private(set) var spoken: [String] = []
    let canvas: SeatCanvas
    var viewport: Viewport

    init(layout: VenueLayout) {
        canvas = SeatCanvas(layout: layout, style: CanvasStyle())
        viewport = canvas.viewport(viewSize: LayoutSize(width: 390, height: 640))
    }

    /// The session's states drawn, its messages said once, on the main actor.
    func follow(_ session: SeatSession) async {
        let states = await session.states(), messages = await session.messages()
        Task { for await m in messages { spoken.append(m.english) } }
        for await s in states { show(s) }
    }

    func show(_ s: SessionState) {
        state = s
        let content = FrameContent(availability: s.server, selection: s.selection, language: .english)
        frame = canvas.displayList(viewport: viewport, content: content, policy: DetailPolicy())
    }

    func tap(_ point: LayoutPoint, on session: SeatSession) {
        guard let seat = canvas.hitTest(viewport.contentPoint(forView: point), in: viewport) else { return }
        let id = canvas.layout.seatID(seat)
        Task { await session.select([id]) }
    }

    /// Best available computed off the main actor; the layout and the availability cross as values.
    func suggest(count: Int) async -> [String] {
        guard let s = state else { return [] }
        let layout = s.layout, seats = s.server
        let best = await Task.detached { layout.bestAvailable(BestAvailableRequest(count: count), availability: seats) }.value
        return (best ?? []).map { layout.seatID($0) }
    }
}

/// Opening a show with a cache shared by every screen (the client and the cache are Sendable).
func openShow(_ show: String, server: URL, caches: URL) async throws -> (SeatSession, PickerModel) {
    let api = SeatAPIClient(baseURL: server, cache: try DirectoryCache(directory: caches))
    let session = try await SeatSession(api: api, show: show)
    let layout = await session.state.layout
    let model = await PickerModel(layout: layout)
    Task { @MainActor in await model.follow(session) }
    await session.startLiveUpdates()
    await session.resume()
    return (session, model)
}

/// A grid and a carousel laid out off the main actor, their frames used on it.
func layouts() async -> (Int, Int) {
    let grid = FrozenGridLayout(rows: UniformAxis(count: 21, itemSize: 44), columns: UniformAxis(count: 43, itemSize: 96), frozenRows: 1, frozenColumns: 1)
    let carousel = CompositionalLayout(
        sections: [SectionPreset.cardCarousel.section(itemCount: 12, header: nil)], containerSize: LayoutSize(width: 390, height: 844))
    let cells = await Task.detached { grid.visibleCells(offset: LayoutPoint(x: 0, y: 0), viewSize: LayoutSize(width: 390, height: 844)).count }.value
    return await MainActor.run { (cells, carousel.attributes(in: LayoutRect(x: 0, y: 0, width: 390, height: 844), pinningOffset: 0).count) }
}

_ = openShow
_ = layouts
