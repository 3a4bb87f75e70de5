// Placeholder so the match library has a translation unit until its code lands; delete then.
