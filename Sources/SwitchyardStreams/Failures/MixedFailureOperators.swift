extension AsyncSequence where Self: Sendable, Element: Sendable {
    /// Like `zip(_:)`, for an input whose failure type differs from this sequence's (as
    /// swift-async-algorithms allows): the result fails with `any Error`, whichever input
    /// failed. Inputs of the same failure type keep it (the typed `zip` is chosen then); use
    /// `setFailureType(to:)` or `mapFailure(_:)` first to keep a typed failure here too.
    ///
    /// ```swift
    /// for try await (tap, rate) in taps.zip(rates) { show(tap, rate) }   // Never and APIError
    /// ```
    @_disfavoredOverload
    @inlinable public func zip<Other: AsyncSequence & Sendable>(
        _ other: Other
    ) -> AsyncZipSequence<(Element, Other.Element), any Error> where Other.Element: Sendable {
        anyFailure().zip(other.anyFailure())
    }

    /// Like `combineLatest(_:)`, for an input whose failure type differs from this sequence's:
    /// the result fails with `any Error`, whichever input failed.
    ///
    /// ```swift
    /// for try await (filter, places) in filters.combineLatest(loadedPlaces) { show(places, filter) }
    /// ```
    @_disfavoredOverload
    @inlinable public func combineLatest<Other: AsyncSequence & Sendable>(
        _ other: Other
    ) -> AsyncCombineLatestSequence<(Element, Other.Element), any Error> where Other.Element: Sendable {
        anyFailure().combineLatest(other.anyFailure())
    }

    /// Like `merge(with:)`, for an input whose failure type differs from this sequence's: the
    /// result fails with `any Error`, whichever input failed.
    ///
    /// ```swift
    /// for try await event in taps.merge(with: serverEvents) { handle(event) }
    /// ```
    @_disfavoredOverload
    @inlinable public func merge<Other: AsyncSequence & Sendable>(
        with other: Other
    ) -> AsyncMergeSequence<Element, any Error> where Other.Element == Element {
        anyFailure().merge(with: other.anyFailure())
    }

    /// This sequence with its failure as `any Error`.
    @inlinable func anyFailure() -> AsyncMapFailureSequence<Self, any Error> {
        mapFailure { $0 }
    }
}

extension AsyncSequence where Self: Sendable, Element: Sendable {
    /// Like `flatMapLatest(_:)`, for inner sequences that cannot fail when this sequence can
    /// (a failing feed switching to local streams): the result fails with this sequence's
    /// failure.
    ///
    /// ```swift
    /// let shown = typedQueries.flatMapLatest { query in cache.matches(for: query) }
    /// ```
    @_disfavoredOverload
    @inlinable public func flatMapLatest<Inner: AsyncSequence & Sendable>(
        _ transform: @escaping @Sendable (Element) -> Inner
    ) -> AsyncFlatMapLatestSequence<Self, AsyncMapFailureSequence<Inner, Failure>> where Inner.Element: Sendable, Inner.Failure == Never {
        flatMapLatest { transform($0).setFailureType(to: Failure.self) }
    }

    /// Like `flatMap(maxConcurrent:_:)`, for inner sequences that cannot fail when this
    /// sequence can: the result fails with this sequence's failure.
    ///
    /// ```swift
    /// let lines = downloadedFiles.flatMap(maxConcurrent: 2) { file in file.lines }
    /// ```
    /// - Precondition: `maxConcurrent` is at least 1.
    @_disfavoredOverload
    @inlinable public func flatMap<Inner: AsyncSequence & Sendable>(
        maxConcurrent: Int = .max,
        _ transform: @escaping @Sendable (Element) -> Inner
    ) -> AsyncConcurrentFlatMapSequence<Self, AsyncMapFailureSequence<Inner, Failure>> where Inner.Element: Sendable, Inner.Failure == Never {
        flatMap(maxConcurrent: maxConcurrent) { transform($0).setFailureType(to: Failure.self) }
    }
}
