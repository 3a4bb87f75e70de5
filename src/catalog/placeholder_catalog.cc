// Placeholder so the catalog library has a translation unit until its code lands; delete then.
