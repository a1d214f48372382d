import RiveSyncModel

/// The object type keys this reader interprets (`RIV-FORMAT.md` §5). Every other type is read
/// and thrown away, as the runtime does.
enum TypeKey {
    static let artboard = 1
    static let stateMachine = 53

    static let viewModel = 435
    static let viewModelInstance = 437
    static let viewModelInstanceListItem = 427

    static let dataEnum = 510
    static let dataEnumCustom = 438
    static let dataEnumSystem = 512
    static let dataEnumValue = 445

    /// ViewModelProperty* types and the data type each one declares. Abstract types (563) are
    /// not here: the runtime cannot create them, so they take no place in the property list.
    static func propertyType(_ typeKey: Int) -> DataType? {
        switch typeKey {
        case 431: return .number
        case 443: return .string
        case 448: return .boolean
        case 440: return .color
        case 502: return .trigger
        case 434: return .list
        case 598: return .artboard
        case 439, 509, 511: return .enum
        case 436: return .viewModel
        case 584, 585: return .assetImage
        case 1034: return .assetFont
        case 1043: return .assetBlob
        case 564: return .symbolListIndex
        default: return nil
        }
    }

    /// ViewModelInstance*Value types and the kind of value each one holds.
    static func valueKind(_ typeKey: Int) -> ValueKind? {
        switch typeKey {
        case 442: return .typed(.number)
        case 433: return .typed(.string)
        case 449: return .typed(.boolean)
        case 426: return .typed(.color)
        case 432: return .typed(.enum)
        case 501: return .typed(.trigger)
        case 441: return .typed(.list)
        case 444: return .typed(.viewModel)
        case 587: return .typed(.assetImage)
        case 1035: return .typed(.assetFont)
        case 1044: return .typed(.assetBlob)
        case 586: return .anyAsset
        case 599: return .typed(.artboard)
        case 566: return .typed(.symbolListIndex)
        default: return nil
        }
    }

    /// File asset types (the file-asset index space) and their kinds. ManifestAsset (642) is
    /// not part of that space.
    static func assetKind(_ typeKey: Int) -> FileAssetSchema.Kind? {
        switch typeKey {
        case 105: return .image
        case 141: return .font
        case 406: return .audio
        case 649: return .blob
        case 529, 1071: return .script
        case 970: return .unknown
        default: return nil
        }
    }
}
