// FoundationEssentials where the toolchain splits it out (Linux, Windows, Android); Apple's
// platforms have JSONDecoder in Foundation itself.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension AsyncSequence where Element == Data {
    /// Decodes each element, a JSON document, into `type`.
    ///
    /// - **Emits** one decoded value per element.
    /// - **Finishes** when this sequence finishes.
    /// - **Fails** with ``JSONDecodeFailure/undecodable(input:underlying:)`` (holding the bytes
    ///   that did not decode and the decoder's error) at the first element that does not
    ///   decode, or with ``JSONDecodeFailure/upstream(_:)`` wrapping this sequence's failure.
    ///   Nothing is read after a failure.
    /// - **Buffers** nothing. Starts no task: decoding runs in the consumer's `next`.
    ///
    /// ```swift
    /// for try await reading in lines.decode(type: Reading.self) { record(reading) }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type each document decodes to.
    ///   - decoder: The decoder to use; defaults to a `JSONDecoder()` with default settings.
    @inlinable public func decode<Value: Decodable>(
        type: Value.Type,
        decoder: JSONDecoder = JSONDecoder()
    ) -> AsyncJSONDecodeSequence<Self, Value> {
        AsyncJSONDecodeSequence(self, decoder: decoder) { $0 }
    }
}

extension AsyncSequence where Element == String {
    /// Decodes each element, a JSON document as text (such as one line of JSON lines), into
    /// `type`; otherwise the same as the `Data` form of `decode(type:decoder:)`.
    ///
    /// ```swift
    /// for try await reading in file.lines.decode(type: Reading.self) { record(reading) }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type each document decodes to.
    ///   - decoder: The decoder to use; defaults to a `JSONDecoder()` with default settings.
    @inlinable public func decode<Value: Decodable>(
        type: Value.Type,
        decoder: JSONDecoder = JSONDecoder()
    ) -> AsyncJSONDecodeSequence<Self, Value> {
        AsyncJSONDecodeSequence(self, decoder: decoder) { Data($0.utf8) }
    }
}

/// Values decoded from a base sequence of JSON documents. Made by `decode(type:decoder:)`.
public struct AsyncJSONDecodeSequence<Base: AsyncSequence, Value: Decodable>: AsyncSequence {
    /// The decoded values.
    public typealias Element = Value
    /// The base's failure wrapped, or an undecodable element.
    public typealias Failure = JSONDecodeFailure<Base.Failure>

    @usableFromInline let base: Base
    @usableFromInline let decoder: JSONDecoder
    @usableFromInline let bytes: @Sendable (Base.Element) -> Data

    @inlinable init(_ base: Base, decoder: JSONDecoder, bytes: @escaping @Sendable (Base.Element) -> Data) {
        self.base = base
        self.decoder = decoder
        self.bytes = bytes
    }

    /// Makes an iterator that decodes the base's elements.
    @inlinable public func makeAsyncIterator() -> Iterator {
        Iterator(base: base.makeAsyncIterator(), decoder: decoder, bytes: bytes)
    }

    /// Takes decoded values.
    public struct Iterator: AsyncIteratorProtocol, ConsumerPacedIterator {
        @usableFromInline var base: Base.AsyncIterator
        @usableFromInline let decoder: JSONDecoder
        @usableFromInline let bytes: @Sendable (Base.Element) -> Data
        @usableFromInline var failed = false

        @inlinable init(base: Base.AsyncIterator, decoder: JSONDecoder, bytes: @escaping @Sendable (Base.Element) -> Data) {
            self.base = base
            self.decoder = decoder
            self.bytes = bytes
        }

        /// The next decoded value; `nil` when the base ends or after a failure.
        /// - Throws: ``JSONDecodeFailure``, once.
        @inlinable public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Value? {
            guard !failed else { return nil }
            let element: Base.Element?
            do throws(Base.Failure) {
                element = try await base.next(isolation: actor)
            } catch {
                failed = true
                throw .upstream(error)
            }
            guard let element else { return nil }
            let input = bytes(element)
            do {
                return try decoder.decode(Value.self, from: input)
            } catch {
                failed = true
                throw .undecodable(input: input, underlying: error)
            }
        }
    }
}

extension AsyncJSONDecodeSequence: Sendable where Base: Sendable {}

/// Why a `decode(type:decoder:)` sequence failed: its upstream failed, or an element was not
/// the expected JSON. Nothing is lost: the undecodable bytes come with the error.
public enum JSONDecodeFailure<Upstream: Error>: Error, CustomStringConvertible {
    /// The upstream sequence failed with this failure.
    case upstream(Upstream)
    /// `input` did not decode; `underlying` is the decoder's error (usually a `DecodingError`).
    case undecodable(input: Data, underlying: any Error)

    /// A one-line explanation naming the undecodable input (its first 120 bytes as text).
    @inlinable public var description: String {
        switch self {
        case .upstream(let failure):
            return "upstream failed: \(failure)"
        case .undecodable(let input, let underlying):
            let text = String(decoding: input.prefix(120), as: UTF8.self)
            let more = input.count > 120 ? "… (\(input.count) bytes)" : ""
            return "undecodable JSON \"\(text)\(more)\": \(underlying)"
        }
    }
}
