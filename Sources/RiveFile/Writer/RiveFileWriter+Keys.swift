import RiveSyncModel

extension RiveFileWriter {
    /// The type and property keys the writer uses, named as Rive's runtime names them
    /// (RIV-FORMAT.md §5).
    enum Keys {
        static let backboard: UInt64 = 23
        static let artboard: UInt64 = 1
        static let stateMachine: UInt64 = 53
        static let viewModel: UInt64 = 435
        static let viewModelInstance: UInt64 = 437
        static let enumType: UInt64 = 438
        static let enumValueType: UInt64 = 445
        static let listItem: UInt64 = 427

        /// `Component.name`, `Component.parentId`, `Animation.name`.
        static let componentName: UInt64 = 4
        static let parentId: UInt64 = 5
        static let animationName: UInt64 = 55
        static let assetName: UInt64 = 203
        /// `ViewModelComponent.name` (view models and their properties).
        static let viewModelComponentName: UInt64 = 557
        static let viewModelFlags: UInt64 = 981
        static let enumName: UInt64 = 572
        static let enumValueKey: UInt64 = 578
        static let propertyEnum: UInt64 = 574
        static let propertyViewModel: UInt64 = 565
        static let instanceViewModel: UInt64 = 566
        static let valueProperty: UInt64 = 554
        static let listItemViewModel: UInt64 = 549
        static let listItemInstance: UInt64 = 550
        static let artboardViewModel: UInt64 = 583
        static let artboardDefaultStateMachine: UInt64 = 236

        static func assetType(_ kind: FileAssetSchema.Kind) -> UInt64 {
            switch kind {
            case .image: return 105
            case .font: return 141
            case .blob: return 649
            case .audio: return 406
            case .script: return 529
            case .manifest, .unknown: return 970
            }
        }

        /// The `ViewModelProperty…` type of a property.
        static func propertyType(_ type: DataType) -> UInt64 {
            switch type {
            case .number: return 431
            case .string: return 443
            case .boolean: return 448
            case .color: return 440
            case .enum: return 439
            case .trigger: return 502
            case .list: return 434
            case .viewModel: return 436
            case .assetImage: return 585
            case .assetFont: return 1034
            case .assetBlob: return 1043
            case .artboard: return 598
            case .symbolListIndex: return 564
            }
        }

        /// The `ViewModelInstance…` value type of a property.
        static func valueType(_ type: DataType) -> UInt64 {
            switch type {
            case .number: return 442
            case .string: return 433
            case .boolean: return 449
            case .color: return 426
            case .enum: return 432
            case .trigger: return 501
            case .list: return 441
            case .viewModel: return 444
            case .assetImage: return 587
            case .assetFont: return 1035
            case .assetBlob: return 1044
            case .artboard: return 599
            case .symbolListIndex: return 566
            }
        }

        /// The `propertyValue` key of a value type (the reader's own table); lists hold items
        /// instead.
        static func valueKey(_ type: DataType) -> UInt64? {
            PropertyKey.propertyValue(of: .typed(type)).map(UInt64.init)
        }
    }
}
