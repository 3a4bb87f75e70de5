// Placeholder so the document library has a translation unit until its code lands; delete then.
