// Placeholder so the store library has a translation unit until its code lands; delete then.
