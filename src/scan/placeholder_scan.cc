// Placeholder so the scan library has a translation unit until its code lands; delete then.
