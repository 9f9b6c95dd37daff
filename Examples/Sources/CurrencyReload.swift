import Switchyard

/// Article 2 — a currency screen in MVVM: the view model turns "reload" taps into rate fetches
/// with `flatMapLatest` (Combine's `map` + `switchToLatest`), so a slow, superseded fetch never
/// overwrites a newer one, and publishes the rates for the view.
public final class CurrencyViewModel: Sendable {
    /// Taps on "reload", from the view.
    public let reload = Broadcast<Void>()
    /// The latest rates, for the view (empty until the first fetch lands).
    public let rates = CurrentValue<[String: Double]>([:])
    private let binding: Task<Void, Never>

    /// Binds reloads to `fetch`; each reload cancels the fetch in flight.
    public init(fetch: @escaping @Sendable () async -> [String: Double]) {
        let rates = self.rates
        let fetches = reload.subscribe().flatMapLatest { _ in await fetch() }
        binding = Task {
            for await latest in fetches { rates.send(latest) }
        }
    }

    deinit {
        binding.cancel()
    }
}
