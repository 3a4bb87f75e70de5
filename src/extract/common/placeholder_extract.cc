// Placeholder so the extract library has a translation unit until its code lands; delete then.
