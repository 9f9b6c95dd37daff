import SwitchyardBus
import SwitchyardBusTesting
import Testing

/// A user's plugin tested with `TestBus` on a manual clock, through the products only.
struct TestBusTests {
    private let registry = PluginRegistry(Autosave.self)

    /// One edit saves exactly when the quiet period has passed on the manual clock, not before.
    @Test func savesAfterTheQuietPeriod() async throws {
        let bus = try TestBus(configuration: #"{"plugins": [{"name": "autosave", "kind": "autosave", "quietPeriod": 2}]}"#,
                              registry: registry)
        #expect(await bus.start())
        let edit = try #require(await bus.dispatch("document/edited", ["text": "hello"]))
        #expect(await bus.receive("autosave/pending")?.cause == edit.id)
        #expect(await bus.waitForSleepers(atLeast: 1))
        bus.advance(by: .seconds(1))
        // Still asleep with its deadline ahead: nothing was saved at one second.
        #expect(await bus.waitForSleepers(atLeast: 1))
        #expect(bus.actions("autosave/saved").isEmpty)
        bus.advance(by: .seconds(1))
        let saved = try #require(await bus.receive("autosave/saved"))
        #expect(saved.cause == edit.id)
        #expect(saved.payload == ["text": "hello"])
        #expect(saved.source == "autosave")
        #expect(bus.state["autosave"] == ["saves": 1])
        let all = try await bus.stop()
        #expect(all.map(\.type) == [
            "bus/started", "document/edited", "autosave/pending", "autosave/saved", "bus/stopping",
        ])
    }

    /// Edits in a burst save once, for the last edit (the earlier waits are cancelled).
    @Test func burstSavesOnceForTheLastEdit() async throws {
        let bus = TestBus(plugins: ["autosave": Autosave(name: "autosave", quietPeriod: .seconds(5))])
        #expect(await bus.start())
        var edits: [BusAction] = []
        for text in ["a", "ab", "abc"] {
            edits.append(try #require(await bus.dispatch("document/edited", ["text": .string(text)])))
        }
        let last = try #require(edits.last)
        #expect(await bus.receive("autosave/pending", where: { $0.cause == last.id }) != nil)
        #expect(await bus.waitForSleepers(atLeast: 1))
        bus.advance(by: .seconds(5))
        let saved = try #require(await bus.receive("autosave/saved"))
        #expect(saved.cause == last.id)
        #expect(saved.payload == ["text": "abc"])
        try await bus.stop()
        #expect(bus.actions("autosave/saved").count == 1)
        #expect(bus.state["autosave"] == ["saves": 1])
    }

    /// Bad settings in the config text fail the test bus's construction with the key path.
    @Test func invalidSettingsAreReported() {
        #expect {
            _ = try TestBus(configuration: #"{"plugins": [{"name": "a", "kind": "autosave", "quietPeriod": -1}]}"#,
                            registry: registry)
        } throws: { error in
            String(describing: error).contains("plugins[0].quietPeriod")
        }
    }
}
