import Switchyard
import SwitchyardExamples
import SwitchyardTesting
import Synchronization
import SwitchyardTestSupport
import Testing

struct ArticleExampleTests {
    /// Article 1: only positions far enough from the last significant one become significant.
    @Test func locationStore() async {
        let path = [0.0, 0.004, 0.012, 0.013, 0.03].map { LocationStoreExample.Location(latitude: 48 + $0, longitude: 11) }
        let significant = await LocationStoreExample.run(positions: path)
        #expect(significant.map(\.latitude) == [48, 48.012, 48.03])
    }

    /// Article 2: reload → flatMapLatest — a slow first fetch superseded by a second reload
    /// never overwrites the newer rates.
    @Test func currencyReloadSwitchesToLatest() async {
        let calls = Mutex(0)
        let slowFirst = CurrentValue(false)
        let model = CurrencyViewModel {
            let call = calls.withLock { $0 += 1; return $0 }
            if call == 1 {
                for await released in slowFirst.subscribe() where released { break }
                return ["EUR": 1.0]
            }
            return ["EUR": 2.0]
        }
        var rates = model.rates.subscribe().makeAsyncIterator()
        #expect(await rates.next() == [:])
        while model.reload.subscriberCount == 0 { await Task.yield() }
        model.reload.send(())
        while calls.withLock({ $0 }) < 1 { await Task.yield() }
        model.reload.send(())
        #expect(await rates.next() == ["EUR": 2.0])
        slowFirst.send(true)
        model.reload.send(())
        #expect(await rates.next() == ["EUR": 2.0])
        #expect(model.rates.value == ["EUR": 2.0])
    }

    /// Article 3: the location observer sees loading then the loaded places of the newest
    /// location; the older fetch is cancelled. Checked with a TestStore too.
    @Test func placesLoadable() async {
        let store = Store(initialState: PlacesExample.State(), reducer: PlacesExample.reducer,
                          middleware: [PlacesExample.fetchPlaces { location in ["café near \(location)"] }])
        let observer = Task { await PlacesExample.observe(store) }
        await store.dispatch(.locationChanged("48.1,11.5"))
        let shown = await withDeadline { await observer.value }
        #expect(shown?.last == .loaded(["café near 48.1,11.5"]))

        let test = TestStore(initialState: PlacesExample.State(), reducer: PlacesExample.reducer,
                             middleware: [PlacesExample.fetchPlaces { location in
                                 if location == "far" { throw PlacesError.notFound }
                                 return ["museum"]
                             }])
        await test.send(.locationChanged("here")) { $0.location = "here"; $0.places = .loading }
        await test.receive(.placesLoaded(["museum"])) { $0.places = .loaded(["museum"]) }
        await test.send(.locationChanged("far")) { $0.location = "far"; $0.places = .loading }
        await test.receive(.placesFailed("notFound")) { $0.places = .failed("notFound") }
        await test.finish()
    }

    /// Article 4: tilting from flat to 45° gives smoothed, whole, changing angles only.
    @Test func tiltPipeline() async {
        let samples = [(0.0, 1.0), (0.0, 1.0), (0.7071, 0.7071), (0.7071, 0.7071), (0.7071, 0.7071), (0.7071, 0.7071)]
            .map { TiltPipeline.Sample(x: 0, y: $0.0, z: $0.1) }
        let stream = AsyncStream { continuation in
            for sample in samples { continuation.yield(sample) }
            continuation.finish()
        }
        var angles: [Int] = []
        for await angle in TiltPipeline.tilt(stream) { angles.append(angle) }
        #expect(angles.first == 0)
        #expect(angles == angles.sorted())
        #expect(Set(angles).count == angles.count)
        #expect(angles.last.map { (40...45).contains($0) } == true)
    }

    /// Article 5: KINTO's transform — the text follows every one of 300 taps while the zip
    /// with the single didLoad, consumed for the screen's lifetime, pairs only the first tap
    /// (share and zip must not stall the text behind the unpaired taps).
    @Test func inputOutputTransform() async {
        let input = InputOutputExample.Input(didLoad: Broadcast(), buttonTap: Broadcast())
        let output = InputOutputExample.transform(input)
        let paired = Mutex<[Int]>([])
        let texts = Task {
            var last = ""
            for await text in output.text {
                last = text
                if text == "tapped 300 times" { break }
            }
            return last
        }
        let firstTaps = Task {
            for await count in output.firstTapAfterLoad { paired.withLock { $0.append(count) } }
        }
        while input.buttonTap.subscriberCount == 0 || input.didLoad.subscriberCount == 0 { await Task.yield() }
        input.didLoad.send(())
        let taps = Task { for _ in 0..<300 { await input.buttonTap.deliver(()) } }
        // A stall never ends by itself: a watchdog ends the text's loop (cancelling its task
        // ends the iteration), and the last text shows where it stopped.
        let watchdog = Task {
            try? await Task.sleep(for: .seconds(60))
            texts.cancel()
        }
        let last = await texts.value
        watchdog.cancel()
        #expect(last == "tapped 300 times")
        // The pairing is delivered by a task of its own, which a busy machine may not have run
        // yet when the text has reached its last value.
        await waitUntil("the first tap after the load is paired") { !paired.withLock { $0 }.isEmpty }
        #expect(paired.withLock { $0 } == [1])
        firstTaps.cancel()
        taps.cancel()
    }
}

private enum PlacesError: Error, CustomStringConvertible {
    case notFound
    var description: String { "notFound" }
}
