import Foundation
import XCTest

/// The `.riv` fixtures in `../shared/fixtures/riv/`, read in place.
///
/// A missing fixture fails the test that needs it (it never skips or passes).
enum Fixtures {
    /// `<package root>/../shared/fixtures/riv`.
    static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/fixtures/riv")

    /// The 24 fixture files named in `RIV-FIXTURES.md`.
    static let names = [
        "viewmodel_runtime_file", "library_data_enum_test", "library_view_model_test", "global_viewmodels_test",
        "data_binding_test_2", "shared_viewmodel_instance", "list_to_path", "stateful_list_props", "scripted_enum",
        "scripted_string", "scripted_boolean", "scripted_color", "data_bind_blob_test", "data_bind_font_test",
        "data_binding_images_test", "data_binding_artboards_test", "component_stateful_vm_instance",
        "rebind_with_nested_viewmodel", "bidirectional_precedence", "vm_listener_fire_event",
        "transition_index_condition", "viewmodel_list_trigger", "list_items", "inventory_demo_test_v2",
    ]

    struct Missing: Error, CustomStringConvertible {
        var description: String
    }

    /// The bytes of `name.riv`; throws `Missing` if the file is not there.
    static func bytes(_ name: String) throws -> [UInt8] {
        let url = directory.appendingPathComponent(name + ".riv")
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw Missing(description: "fixture \(url.path) is missing (the ../shared checkout is absent)")
        }
        return [UInt8](data)
    }
}
