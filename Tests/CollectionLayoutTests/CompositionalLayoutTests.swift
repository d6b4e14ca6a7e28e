import Testing
@testable import CollectionLayout

func describe(_ attributes: [LayoutAttributes]) -> String {
    attributes.map { "\($0.kind == .header ? "header" : "item") \($0.path) \($0.frame)" }.joined(separator: "\n") + "\n"
}

@Suite struct CompositionalLayoutTests {
    let phone = LayoutSize(width: 390, height: 844)

    func showTimesScreen() -> CompositionalLayout {
        CompositionalLayout(
            sections: [
                SectionPreset.cardCarousel.section(itemCount: 12, header: SectionHeader(height: 30, pinned: true)),
                SectionPreset.twoColumnGrid.section(itemCount: 7, header: SectionHeader(height: 30, pinned: true)),
                SectionPreset.list.section(itemCount: 50, header: SectionHeader(height: 30)),
            ], containerSize: phone)
    }

    @Test func presetsLayOutAsDescribed() {
        let layout = showTimesScreen()
        assertSnapshot(
            describe(layout.attributes(in: LayoutRect(x: 0, y: 0, width: 390, height: 844), pinningOffset: 0)),
            named: "compositional-first-screen")
        // Carousel: cards 80% of (390 − 32) wide, 12 apart, after a 16-point inset.
        #expect(close(layout.frame(of: ItemPath(section: 0, item: 1)), LayoutRect(x: 16 + 286.4 + 12, y: 38, width: 286.4, height: 120)))
        // Two columns of squares, 8-point insets.
        #expect(layout.frame(of: ItemPath(section: 1, item: 3)) == LayoutRect(x: 8 + 187, y: 166 + 30 + 8 + 187, width: 187, height: 187))
    }

    @Test func rectQueriesMatchScanningEverything() {
        var layout = showTimesScreen()
        layout.orthogonalOffsets[0] = 500
        var all: [LayoutAttributes] = []
        for s in layout.sections.indices {
            for i in 0..<layout.sections[s].itemCount {
                all.append(LayoutAttributes(kind: .item, path: ItemPath(section: s, item: i), frame: layout.frame(of: ItemPath(section: s, item: i))))
            }
        }
        var rng = Random(3)
        for _ in 0..<200 {
            let rect = LayoutRect(x: rng.double(-100, 500), y: rng.double(-100, 3000), width: rng.double(1, 400), height: rng.double(1, 900))
            let fast = layout.attributes(in: rect).filter { $0.kind == .item }.map(\.path)
            let slow = all.filter { $0.frame.intersects(rect) }.map(\.path)
            #expect(fast == slow, "rect \(rect)")
        }
    }

    @Test func measuringAboveTheWindowDoesNotMoveWhatIsOnScreen() {
        var layout = CompositionalLayout(sections: [SectionPreset.list.section(itemCount: 1000)], containerSize: phone)
        var scrollY = layout.frame(of: ItemPath(section: 0, item: 500)).minY
        let anchorBefore = layout.frame(of: ItemPath(section: 0, item: 500)).minY - scrollY
        // Items far above shrink (44 → 20) and one grows: the window's content must not jump.
        for i in [10, 11, 12, 13] { scrollY += layout.measure(ItemPath(section: 0, item: i), height: 20, visibleTop: scrollY) }
        scrollY += layout.measure(ItemPath(section: 0, item: 40), height: 100, visibleTop: scrollY)
        #expect(layout.frame(of: ItemPath(section: 0, item: 500)).minY - scrollY == anchorBefore)
        // An item inside the window grows: items below it move, the offset stays.
        let below = layout.frame(of: ItemPath(section: 0, item: 505)).minY
        #expect(layout.measure(ItemPath(section: 0, item: 502), height: 80, visibleTop: scrollY) == 0)
        #expect(layout.frame(of: ItemPath(section: 0, item: 505)).minY == below + 36)
        let expectedHeight: Double = 1000 * 44 + 999 - 4 * 24 + 56 + 36
        #expect(layout.contentSize.height == expectedHeight)
    }

    @Test func pinnedHeadersStickUntilTheNextSectionPushes() {
        let layout = showTimesScreen()
        let gridTop = layout.sectionFrame(1).minY, gridBottom = layout.sectionFrame(1).maxY
        #expect(layout.headerFrame(1, pinningOffset: gridTop + 50)?.minY == gridTop + 50)
        #expect(layout.headerFrame(1, pinningOffset: gridBottom - 10)?.minY == gridBottom - 30)
        #expect(layout.headerFrame(1, pinningOffset: 0)?.minY == gridTop)
        #expect(layout.headerFrame(2, pinningOffset: 5000)?.minY == layout.sectionFrame(2).minY)  // not pinned
    }

    @Test func orthogonalSnapping() {
        func layout(_ behaviour: OrthogonalScrolling, items: Int = 10) -> CompositionalLayout {
            CompositionalLayout(
                sections: [
                    LayoutSection(
                        itemCount: items,
                        group: LayoutGroup(
                            axis: .horizontal, size: LayoutSize2D(width: .absolute(100), height: .absolute(50)),
                            itemSize: LayoutSize2D(width: .fractionalWidth(1), height: .fractionalHeight(1))),
                        interGroupSpacing: 10, orthogonalScrolling: behaviour)
                ], containerSize: LayoutSize(width: 250, height: 500))
        }
        // Ten groups of 100 with 10 between: content 1090, so the end is at 840.
        let paging = layout(.paging)
        #expect(paging.orthogonalTarget(section: 0, offset: 120, velocity: 0) == 0)
        #expect(paging.orthogonalTarget(section: 0, offset: 130, velocity: 0) == 250)
        #expect(paging.orthogonalTarget(section: 0, offset: 10, velocity: 800) == 250)
        #expect(paging.orthogonalTarget(section: 0, offset: 760, velocity: 800) == 840)  // the last page ends at the content end
        #expect(paging.orthogonalTarget(section: 0, offset: 840, velocity: -800) == 750)
        let group = layout(.groupPaging)
        #expect(group.orthogonalTarget(section: 0, offset: 104, velocity: 0) == 110)
        #expect(group.orthogonalTarget(section: 0, offset: 104, velocity: 900) == 220)
        #expect(group.orthogonalTarget(section: 0, offset: 104, velocity: -900) == 0)
        let centred = layout(.groupPagingCentered)
        #expect(centred.orthogonalTarget(section: 0, offset: 0, velocity: 0) == 50 - 125 + 110)  // group 1 centred is nearer than group 0 (−75)
        #expect(centred.orthogonalTarget(section: 0, offset: -75, velocity: -900) == -75)  // the first group, centred
        #expect(centred.orthogonalTarget(section: 0, offset: 915, velocity: 900) == 990 + 50 - 125)  // the last group, centred
        let leading = layout(.continuousGroupLeadingBoundary)
        #expect(leading.orthogonalTarget(section: 0, offset: 0, velocity: 100) == 0)  // projects to 49.9, nearest leading edge 0
        #expect(leading.orthogonalTarget(section: 0, offset: 300, velocity: 0) == 330)
        let continuous = layout(.continuous)
        #expect(close(continuous.orthogonalTarget(section: 0, offset: 100, velocity: 200), 100 + 200 * 0.998 / 0.002 / 1000))
        #expect(continuous.orthogonalTarget(section: 0, offset: 100, velocity: 1e6) == 840)
    }

    @Test func switchingPresetsAtRunTime() {
        var layout = showTimesScreen()
        layout.replaceSection(1, with: SectionPreset.list.section(itemCount: 7))
        #expect(layout.frame(of: ItemPath(section: 1, item: 1)).width == 390)
        layout.replaceSection(1, with: SectionPreset.twoColumnGrid.section(itemCount: 7))
        #expect(layout.frame(of: ItemPath(section: 1, item: 1)).width == 187)
        #expect(layout.frame(of: ItemPath(section: 1, item: 1)).minX == 195)
    }

    @Test func rotationResolvesFractionsAgain() {
        var layout = showTimesScreen()
        layout.resize(to: LayoutSize(width: 844, height: 390))
        #expect(layout.frame(of: ItemPath(section: 1, item: 0)).width == (844 - 16) / 2)
        #expect(layout.frame(of: ItemPath(section: 0, item: 0)).width == (844 - 32) * 0.8)
    }
}

@Suite struct CompositionalGroupTests {
    @Test func verticalGroupsStackTheirItemsAndRepeat() {
        // Groups of three stacked 40-point rows, 4 apart inside a group, 10 between groups, 12-point insets.
        let section = LayoutSection(
            itemCount: 7,
            group: LayoutGroup(
                axis: .vertical, size: LayoutSize2D(width: .fractionalWidth(1), height: .absolute(128)),
                itemSize: LayoutSize2D(width: .fractionalWidth(0.5), height: .absolute(40)), count: 3, interItemSpacing: 4),
            interGroupSpacing: 10, contentInsets: EdgeInsets(all: 12))
        let layout = CompositionalLayout(sections: [section], containerSize: LayoutSize(width: 200, height: 400))
        let frames = (0..<7).map { layout.frame(of: ItemPath(section: 0, item: $0)) }
        #expect(
            frames == [
                LayoutRect(x: 12, y: 12, width: 88, height: 40), LayoutRect(x: 12, y: 56, width: 88, height: 40),
                LayoutRect(x: 12, y: 100, width: 88, height: 40), LayoutRect(x: 12, y: 150, width: 88, height: 40),
                LayoutRect(x: 12, y: 194, width: 88, height: 40), LayoutRect(x: 12, y: 238, width: 88, height: 40),
                LayoutRect(x: 12, y: 288, width: 88, height: 40),
            ])
        let expectedHeight: Double = 12 + 3 * 128 + 2 * 10 + 12
        #expect(layout.contentSize.height == expectedHeight)
    }

    @Test func emptySectionsTakeNoRoomButKeepTheirHeader() {
        let layout = CompositionalLayout(
            sections: [
                SectionPreset.list.section(itemCount: 0, header: SectionHeader(height: 20)),
                SectionPreset.list.section(itemCount: 2),
            ],
            containerSize: LayoutSize(width: 100, height: 100))
        #expect(layout.sectionFrame(0).height == 20)
        #expect(layout.frame(of: ItemPath(section: 1, item: 0)).minY == 20)
        #expect(layout.attributes(in: LayoutRect(x: 0, y: 0, width: 100, height: 100)).map(\.kind) == [.header, .item, .item])
    }
}
