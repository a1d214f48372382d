import Foundation
import RiveSyncClient
import RiveSyncJSON

/// Reads a VALUE argument by the type of the property it is for: numbers, `true`/`false`,
/// `#RRGGBB`/`#AARRGGBB`, enum value names, strings (plain, or JSON-quoted), `#ID` for a nested
/// instance, an artboard name, a file path to upload for images, fonts and blobs, `null` to clear.
enum ValueText {
    static func parse(_ text: String, as type: ViewModelProperty.DataType, path: String, worker: Worker) async throws -> DynamicValue {
        func bad(_ expected: String) -> CommandError { .invalidValue("'\(text)' is not \(expected) (property '\(path)' is \(type))") }
        switch type {
        case .number:
            guard let number = Float(text), number.isFinite else { throw bad("a number") }
            return .number(number)
        case .boolean:
            guard text == "true" || text == "false" else { throw bad("true or false") }
            return .boolean(text == "true")
        case .color:
            guard let argb = parseColor(text) else { throw bad("a color #RRGGBB or #AARRGGBB") }
            return .color(Color(argb))
        case .string: return .string(unquoted(text))
        case .enum: return .enumValue(unquoted(text))
        case .artboard: return .artboard(text == "null" ? nil : unquoted(text))
        case .viewModel:
            if text == "null" { return .viewModel(nil) }
            guard let id = InstanceText.id(text) else { throw bad("an instance id #ID") }
            return .viewModel(id)
        case .symbolListIndex:
            guard let index = UInt32(text) else { throw bad("a non-negative integer") }
            return .symbolListIndex(index)
        case .assetImage, .assetFont, .assetBlob:
            if text == "null" { return .asset(nil) }
            guard let data = FileManager.default.contents(atPath: text) else { throw bad("a readable file or null") }
            switch type {
            case .assetImage: return .asset(try await worker.decodeImage(from: data).reference)
            case .assetFont: return .asset(try await worker.decodeFont(from: data).reference)
            default: return .asset(try await worker.decodeBlob(from: data).reference)
            }
        case .trigger: throw CommandError.invalidValue("'\(path)' is a trigger: use 'rivesync fire'")
        case .list: throw CommandError.invalidValue("'\(path)' is a list: use 'rivesync list'")
        case .none, .integer, .input, .any: throw CommandError.invalidValue("'\(path)' has type \(type), which cannot be set")
        }
    }

    /// `#RRGGBB` (opaque) or `#AARRGGBB`.
    static func parseColor(_ text: String) -> UInt32? {
        guard text.hasPrefix("#"), text.count == 7 || text.count == 9, let value = UInt32(text.dropFirst(), radix: 16) else { return nil }
        return text.count == 7 ? 0xFF00_0000 | value : value
    }

    /// A JSON-quoted string's content, or the text as it is.
    static func unquoted(_ text: String) -> String {
        // Text that is not a JSON string is taken as it is: that is what this function does.
        guard text.hasPrefix("\""), let value = try? JSONParser().parse(text), let string = value.stringValue else { return text }
        return string
    }
}

/// Reads INSTANCE arguments: `#ID` or `ID` for an existing instance, `ViewModel` for a new
/// default instance of a view model, `ViewModel/Name` for a new copy of an authored instance.
enum InstanceText {
    /// The id in `#ID` or `ID`.
    static func id(_ text: String) -> UInt64? {
        UInt64(text.hasPrefix("#") ? String(text.dropFirst()) : text)
    }

    /// The instance's id: `#ID`, `@TARGET` (the instance published as TARGET), or a new one
    /// created in `file` when the text names a view model (`ViewModel` or `ViewModel/Name`).
    static func resolve(_ text: String, file: String, worker: Worker) async throws -> UInt64 {
        if let id = id(text) { return id }
        if text.hasPrefix("@") { return try await worker.publishedInstance(named: String(text.dropFirst())).instanceID }
        let remote = try await File(source: .name(file), worker: worker)
        let parts = text.split(separator: "/", maxSplits: 1).map(String.init)
        guard let viewModel = parts.first, !viewModel.isEmpty else { throw CommandError.invalidValue("'\(text)' is not an instance") }
        let source: ViewModelInstanceSource =
            parts.count == 2 ? .name(parts[1], from: .name(viewModel)) : .viewModelDefault(from: .name(viewModel))
        return try await remote.createViewModelInstance(source).instanceID
    }
}
