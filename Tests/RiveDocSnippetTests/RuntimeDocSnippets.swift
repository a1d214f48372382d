// swift-format-ignore-file
// (Rive's text and signatures are kept as written there.)
import Foundation
import RiveSyncClient

// Rive's data-binding documentation for the Apple runtime (../shared/reference/000_*.txt), the
// code of every "New Runtime" snippet, as written there. Each snippet sits between
// `// snippet: LINE` (its first line in the reference) and `// end snippet`. Only the sources
// of the worker, file and instances change, and each change keeps the reference's line:
// `// removed: …` stands where a placeholder line became a parameter of the function, and
// `// was: …` ends a line whose `...` placeholder was filled. DocSnippetTests rebuilds the
// reference's text from these markers and compares it line by line, so the snippets stay
// unchanged.

enum RuntimeDocSnippets {
    @MainActor
    static func instances(file: File, artboard: Artboard) async throws {
        // snippet: 84
        // From a file
        // removed: let file: File = ...

        // When using a view model by name:
        // A blank view model instance
        var blankInstance = try await file.createViewModelInstance(.blank(from: .name("ViewModel")))
        // The default instance for the view model
        var defaultInstance = try await file.createViewModelInstance(.viewModelDefault(from: .name("ViewModel")))
        // An instance by name from the view model
        var namedInstance = try await file.createViewModelInstance(.name("Instance", from: .name("ViewModel")))

        // Alternatively, using the default view model for an artboard
        // removed: let artboard: Artboard = ...
        // A blank view model instance
        blankInstance = try await file.createViewModelInstance(.blank(from: .artboardDefault(artboard)))
        // The default instance for the view model
        defaultInstance = try await file.createViewModelInstance(.viewModelDefault(from: .artboardDefault(artboard)))
        // An instance by name from the view model
        namedInstance = try await file.createViewModelInstance(.name("Instance", from: .artboardDefault(artboard)))
        // end snippet
        _ = (blankInstance, defaultInstance, namedInstance)
    }

    @MainActor
    static func binding(file: File) async throws -> (Rive, ViewModelInstance) {
        // snippet: 143
        let artboard = try await file.createArtboard()
        let viewModelInstance = try await file.createViewModelInstance(
            .viewModelDefault(from: .artboardDefault(artboard))
        )
        let stateMachine = try await artboard.createStateMachine(binding: viewModelInstance)
        let rive = try await Rive(file: file, artboard: artboard, stateMachine: stateMachine)
        // end snippet
        return (rive, viewModelInstance)
    }

    @MainActor
    static func replacingMain(file: File, artboard: Artboard, stateMachine: StateMachine) async throws -> ViewModelInstance {
        // snippet: 154
        let replacementInstance = try await file.createViewModelInstance(
            .viewModelDefault(from: .artboardDefault(artboard))
        )
        try await stateMachine.bindViewModelInstances(main: replacementInstance)
        // end snippet
        return replacementInstance
    }

    @MainActor
    static func autoBinding(file: File) async throws -> Rive {
        // snippet: 192
        let rive = try await Rive(file: file)
        // end snippet
        return rive
    }

    @MainActor
    static func autoBindingArtboard(file: File) async throws -> Rive {
        // snippet: 198
        let artboard = try await file.createArtboard("Artboard")
        let rive = try await Rive(file: file, artboard: artboard)
        // end snippet
        return rive
    }

    @MainActor
    static func globals(file: File) async throws -> (Rive, ViewModelInstance) {
        // snippet: 222
        let artboard = try await file.createArtboard()
        let main = try await file.createViewModelInstance(
            .viewModelDefault(from: .artboardDefault(artboard))
        )
        // This example requires a global view model named "Theme" in the file.
        let theme = try await file.createViewModelInstance(
            .viewModelDefault(from: .name("Theme"))
        )
        let stateMachine = try await artboard.createStateMachine(binding: main) {
            ("Theme", theme)
        }
        let rive = try await Rive(file: file, artboard: artboard, stateMachine: stateMachine)
        // end snippet
        return (rive, theme)
    }

    @MainActor
    static func replacingGlobal(file: File, stateMachine: StateMachine) async throws {
        // snippet: 243
        let darkTheme = try await file.createViewModelInstance(
            .name("Dark", from: .name("Theme"))
        )
        try await stateMachine.bindViewModelInstances {
            ("Theme", darkTheme)
        }
        // end snippet
    }

    @MainActor
    static func globalsBuilder(file: File, stateMachine: StateMachine, colorScheme: ColorScheme) async throws {
        // snippet: 254
        let lightTheme = try await file.createViewModelInstance(
            .name("Light", from: .name("Theme"))
        )
        let darkTheme = try await file.createViewModelInstance(
            .name("Dark", from: .name("Theme"))
        )
        // colorScheme is the current SwiftUI ColorScheme value from your app.
        try await stateMachine.bindViewModelInstances {
            if colorScheme == .dark {
                ("Theme", darkTheme)
            } else {
                ("Theme", lightTheme)
            }
        }
        // end snippet
    }

    @MainActor
    static func listingProperties(file: File) async throws {
        // snippet: 302
        // removed: let file: File = ...
        let properties = try await file.getProperties(of: "ViewModel")
        for property in properties {
            print(property.type) // enum of string, number, boolean, etc
            print(property.name) // The name of the property within the view model
            print(property.metaData) // Additional metadata for the property, if available
        }
        // end snippet
    }

    @MainActor
    static func string(viewModelInstance: ViewModelInstance) async throws -> String {
        // snippet: 358
        // removed: let file: File = ...
        // removed: let viewModelInstance = try await file.createViewModelInstance(...)

        // String
        let stringProperty = StringProperty(path: "path/to/string")
        let stringValue = try await viewModelInstance.value(of: stringProperty)
        viewModelInstance.setValue(of: stringProperty, to: "value")
        // end snippet
        return stringValue
    }

    @MainActor
    static func number(viewModelInstance: ViewModelInstance) async throws -> Float {
        // snippet: 368
        // removed: let file: File = ...
        // removed: let viewModelInstance = try await file.createViewModelInstance(...)

        let numberProperty = NumberProperty(path: "path/to/number")
        let numberValue = try await viewModelInstance.value(of: numberProperty)
        viewModelInstance.setValue(of: numberProperty, to: 9001)
        // end snippet
        return numberValue
    }

    @MainActor
    static func bool(viewModelInstance: ViewModelInstance) async throws -> Bool {
        // snippet: 377
        // removed: let file: File = ...
        // removed: let viewModelInstance = try await file.createViewModelInstance(...)

        let boolProperty = BoolProperty(path: "path/to/bool")
        let boolValue = try await viewModelInstance.value(of: boolProperty)
        viewModelInstance.setValue(of: boolProperty, to: true)
        // end snippet
        return boolValue
    }

    @MainActor
    static func color(viewModelInstance: ViewModelInstance) async throws -> Color {
        // snippet: 386
        // removed: let file: File = ...
        // removed: let viewModelInstance = try await file.createViewModelInstance(...)

        let colorProperty = ColorProperty(path: "path/to/color")
        let colorValue = try await viewModelInstance.value(of: colorProperty)
        viewModelInstance.setValue(of: colorProperty, to: Color(red: 255, green: 255, blue: 255, alpha: 255))
        // end snippet
        return colorValue
    }

    @MainActor
    static func enumeration(viewModelInstance: ViewModelInstance) async throws -> String {
        // snippet: 395
        // removed: let file: File = ...
        // removed: let viewModelInstance = try await file.createViewModelInstance(...)

        let enumProperty = EnumProperty(path: "path/to/enum")
        let enumValue = try await viewModelInstance.value(of: enumProperty)
        viewModelInstance.setValue(of: enumProperty, to: "value")
        // end snippet
        return enumValue
    }

    @MainActor
    static func trigger(viewModelInstance: ViewModelInstance) {
        // snippet: 404
        // removed: let file: File = ...
        // removed: let viewModelInstance = try await file.createViewModelInstance(...)

        let triggerProperty = TriggerProperty(path: "path/to/trigger")
        viewModelInstance.fire(trigger: triggerProperty)
        // end snippet
    }

    @MainActor
    static func nestedPaths(file: File, viewModelInstance: ViewModelInstance) async throws -> (header: ViewModelInstance, replacement: ViewModelInstance) {
        // snippet: 494
        let title = StringProperty(path: "header/title")
        viewModelInstance.setValue(of: title, to: "Welcome")

        let headerProperty = ViewModelInstanceProperty(path: "header")
        let header = viewModelInstance.value(of: headerProperty)
        header.setValue(of: StringProperty(path: "title"), to: "Welcome")

        let replacement = try await file.createViewModelInstance(
            .viewModelDefault(from: .name("Header"))
        )
        viewModelInstance.setValue(of: headerProperty, to: replacement)
        // end snippet
        return (header, replacement)
    }

    @MainActor
    static func observingValues(viewModelInstance: ViewModelInstance) async throws {
        // snippet: 544
        // removed: let file: File = ...
        // removed: let viewModelInstance = try await file.createViewModelInstance(...)
        let stringProperty = StringProperty(path: "path/to/string")
        let valueStream = viewModelInstance.valueStream(of: stringProperty)
        do {
            for try await value in valueStream {
                print(value)
            }
        } catch let error as ViewModelInstanceError {
            // The thrown error should always be a ViewModelInstanceError type
            print(error)
        } catch {
            print(error)
        }
        // end snippet
    }

    @MainActor
    static func observingTriggers(viewModelInstance: ViewModelInstance) async throws {
        // snippet: 563
        // removed: let file: File = ...
        // removed: let viewModelInstance = try await file.createViewModelInstance(...)
        let triggerProperty = TriggerProperty(path: "path/to/trigger")
        let triggerStream = viewModelInstance.stream(of: triggerProperty)
        do {
            for try await _ in triggerStream {
                print("Trigger fired!")
            }
        } catch let error as ViewModelInstanceError {
            // The thrown error should always be a ViewModelInstanceError type
            print(error)
        } catch {
            print(error)
        }
        // end snippet
    }

    @MainActor
    static func images(url: String, imageData: Data) async throws -> ViewModelInstance {
        // snippet: 621
        let worker = try await Worker(url: url) // was: let worker = try await Worker()
        let file = try await File(source: .name("docs"), worker: worker) // was: let file = try await File(source: ..., worker: worker)
        let viewModelInstance = try await file.createViewModelInstance(.viewModelDefault(from: .name("ViewModel"))) // was: let viewModelInstance = try await file.createViewModelInstance(...)
        let imageProperty = ImageProperty(path: "path/to/image")
        // removed: let imageData: Data = ...
        let image = try await worker.decodeImage(from: imageData)
        viewModelInstance.setValue(of: imageProperty, to: image)
        // Clear the image when needed.
        viewModelInstance.setValue(of: imageProperty, to: nil)
        // end snippet
        return viewModelInstance
    }

    @MainActor
    static func fonts(worker: Worker, viewModelInstance: ViewModelInstance, fontData: Data) async throws {
        // snippet: 669
        // removed: let fontData: Data = ...
        let font = try await worker.decodeFont(from: fontData)
        let fontProperty = FontProperty(path: "headingFont")
        viewModelInstance.setValue(of: fontProperty, to: font)

        // Clear the font when needed.
        viewModelInstance.setValue(of: fontProperty, to: nil)
        // end snippet
    }

    @MainActor
    static func blobs(worker: Worker, viewModelInstance: ViewModelInstance) async throws {
        // snippet: 685
        let data = Data([0x01, 0x02, 0x03])
        let blob = try await worker.decodeBlob(from: data)
        let blobProperty = BlobProperty(path: "payload")
        viewModelInstance.setValue(of: blobProperty, to: blob)

        // Clear the blob when needed.
        viewModelInstance.setValue(of: blobProperty, to: nil)
        // end snippet
    }

    @MainActor
    static func lists(file: File, viewModelInstance: ViewModelInstance) async throws -> (size: Int, finalSize: Int) {
        // snippet: 714
        // removed: let file: File = ...
        // removed: let viewModelInstance = try await file.createViewModelInstance(...)
        let listProperty = ListProperty(path: "path/to/list")

        let size = try await viewModelInstance.size(of: listProperty)

        // Result: [newInstance]
        let newInstance = try await file.createViewModelInstance(.blank(from: .name("Item"))) // was: let newInstance = try await file.createViewModelInstance(...)
        viewModelInstance.appendInstance(newInstance, to: listProperty)

        // Result: [insertedInstance, newInstance]
        let insertedInstance = try await file.createViewModelInstance(.blank(from: .name("Item"))) // was: let insertedInstance = try await file.createViewModelInstance(...)
        viewModelInstance.insertInstance(insertedInstance, to: listProperty, at: 0)

        // Result: [newInstance, insertedInstance]
        viewModelInstance.swapInstance(atIndex: 0, withIndex: 1, in: listProperty)

        // Result: [newInstance]
        viewModelInstance.removeInstance(at: 1, from: listProperty)

        // Result: newInstance
        let _ = viewModelInstance.value(of: listProperty, at: 0)

        // Result: []
        viewModelInstance.removeInstance(newInstance, from: listProperty)

        // Result: 0
        let finalSize = try await viewModelInstance.size(of: listProperty)
        // end snippet
        return (size, finalSize)
    }

    @MainActor
    static func artboards(file: File, viewModelInstance: ViewModelInstance) async throws {
        // snippet: 779
        // removed: let file: File = ...
        // removed: let viewModelInstance = try await file.createViewModelInstance(...)
        let artboardProperty = ArtboardProperty(path: "path/to/artboard")
        let artboard = try await file.createArtboard("Character") // was: let artboard = try await file.createArtboard(...)
        viewModelInstance.setValue(of: artboardProperty, to: artboard)
        // Clear the artboard when needed.
        viewModelInstance.setValue(of: artboardProperty, to: nil)
        // end snippet
    }
}
