import RiveFile
import RiveSyncModel
import XCTest

/// Compact descriptions that make fixture expectations one literal each.
extension ViewModelSchema {
    /// `name:type`, with `<enum>` or `<view model>` where the property names one.
    var propertySignature: [String] {
        properties.map { property in
            let meta = property.enumName ?? property.viewModelName
            return "\(property.name):\(property.type.rawValue)" + (meta.map { "<\($0)>" } ?? "")
        }
    }

    var instanceNames: [String] { instances.map(\.name) }
}

extension XCTestCase {
    /// Reads a fixture and checks the view model names in order.
    func readFixture(_ name: String, viewModels: [String], file: StaticString = #filePath, line: UInt = #line) throws
        -> FileSchema
    {
        let schema = try RiveFileReader.read(Fixtures.bytes(name))
        XCTAssertEqual(schema.viewModelNames, viewModels, "view models of \(name)", file: file, line: line)
        return schema
    }

    /// The stored value of `property` in instance `index` of `viewModel`.
    func value(
        _ schema: FileSchema, _ viewModel: String, _ index: Int, _ property: String,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> AuthoredValue? {
        let instances = try schema.viewModel(named: viewModel).instances
        guard instances.indices.contains(index) else {
            XCTFail("\(viewModel) has no instance \(index)", file: file, line: line)
            return nil
        }
        return instances[index].values[property]
    }

    /// `(name, view model, state machines, default state machine)` of every artboard.
    func artboardSummary(_ schema: FileSchema) -> [String] {
        schema.artboards.map { artboard in
            "\(artboard.name) vm=\(artboard.viewModelName ?? "-") sm=\(artboard.stateMachines.joined(separator: ","))"
                + " default=\(artboard.defaultStateMachine ?? "-")"
        }
    }
}
