import SwitchyardIO
import FoundationEssentials
import SwitchyardBus

/// What the plugin does for one trigger: build the request from its templates, emit
/// `PREFIX/loading`, fetch, and emit `PREFIX/loaded` or `PREFIX/failed`.
///
/// Independent of the bus so it can be tested on its own: actions leave through `emit`,
/// state comes in through `state`.
struct FetchEngine: Sendable {
    var configuration: NetworkFetchConfiguration
    var fetcher: Fetcher
    /// Emits an action of the given type and payload, caused by the action with the given id.
    var emit: @Sendable (_ type: String, _ payload: JSON, _ cause: UInt64?) async -> Void
    /// The current bus state, for `{state.…}` placeholders.
    var state: @Sendable () -> JSON
    /// Writes a warning line to the bus log.
    var warn: @Sendable (String) -> Void
    var requestIDs: RequestIDs
    /// The configuration's credentials, hidden in the URL and messages the plugin writes
    /// (never in a response it emits); none by default.
    var secrets = Secrets()

    /// Handles one trigger; returns without emitting `loaded` / `failed` when the task is
    /// cancelled (the request was superseded or the plugin is stopping).
    func handle(_ trigger: BusAction) async {
        guard !Task.isCancelled else { return }
        let prefix = configuration.prefix
        let requestID = JSON.integer(requestIDs.next())
        let cause: UInt64? = trigger.id == 0 ? nil : trigger.id
        let causeJSON = cause.map { JSON.integer(Int64(clamping: $0)) } ?? .null
        let stopwatch = fetcher.clock.stopwatch()
        let prepared: PreparedRequest
        do {
            prepared = try configuration.request.prepare(in: TemplateScope(payload: trigger.payload, state: state()))
        } catch {
            let failure = FetchFailure(
                kind: .template, message: secrets.redact("\(error); no request sent"), attempts: 0, path: error.path)
            warn("trigger \(trigger.type) (id \(trigger.id)): \(failure.message)")
            await emit("\(prefix)/loading", ["requestId": requestID, "cause": causeJSON], cause)
            await emit("\(prefix)/failed", Self.payload(failure, requestID: requestID, elapsed: stopwatch()), cause)
            return
        }
        let redactedURL = secrets.redact(Redaction.redactedURL(prepared.url.absoluteString))
        let requestSecrets = Redaction.secrets(of: prepared)
        await emit(
            "\(prefix)/loading",
            ["requestId": requestID, "cause": causeJSON, "method": .string(prepared.method), "url": .string(redactedURL)],
            cause)
        guard let outcome = await fetcher.fetch(prepared), !Task.isCancelled else { return }
        let elapsed = stopwatch()
        switch outcome {
        case .loaded(let value, let status, let attempts):
            await emit(
                "\(prefix)/loaded",
                [
                    "requestId": requestID, "value": value, "status": .integer(Int64(status)),
                    "elapsedMs": Self.milliseconds(elapsed), "attempts": .integer(Int64(attempts)),
                ],
                cause)
        case .failed(var failure):
            failure.message = secrets.redact(Redaction.scrub(failure.message, secrets: requestSecrets))
            warn("\(prepared.method) \(redactedURL) failed: \(failure.message)")
            await emit("\(prefix)/failed", Self.payload(failure, requestID: requestID, elapsed: elapsed), cause)
        }
    }

    private static func payload(_ failure: FetchFailure, requestID: JSON, elapsed: Duration) -> JSON {
        var fields = failure.json
        fields["requestId"] = requestID
        fields["elapsedMs"] = milliseconds(elapsed)
        return .object(fields)
    }

    private static func milliseconds(_ duration: Duration) -> JSON {
        .integer(Int64((duration.secondsValue * 1000).rounded()))
    }
}
