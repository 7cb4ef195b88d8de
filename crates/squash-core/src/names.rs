//! Enums that have one name per variant (a format, a role, a strategy): the table is written
//! once, and the list of variants, the name, the parse back and the `Display` all come from it.

/// Gives a field-less enum, from one table of `Variant => "name"`: `ALL` (every variant, in
/// table order), `as_str`, `parse` (its inverse) and a `Display` that writes the name.
#[macro_export]
macro_rules! named_enum {
    ($ty:ident { $($variant:ident => $name:literal,)+ }) => {
        impl $ty {
            /// Every variant, in the order of its table.
            pub const ALL: [$ty; [$($name),+].len()] = [$($ty::$variant),+];

            /// The one name of the variant: what people type, what is stored.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($ty::$variant => $name,)+
                }
            }

            /// The inverse of `as_str`.
            pub fn parse(name: &str) -> Option<$ty> {
                $ty::ALL.into_iter().find(|v| v.as_str() == name)
            }
        }

        $crate::display_by_name!($ty);
    };
}

/// A `Display` that writes the type's `as_str`.
#[macro_export]
macro_rules! display_by_name {
    ($ty:ident) => {
        impl ::std::fmt::Display for $ty {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

/// A `FromStr` that takes exactly the names `as_str` gives to `ALL` and refuses any other
/// string as `$unknown(string)`.
#[macro_export]
macro_rules! from_str_by_name {
    ($ty:ident, $unknown:ident) => {
        impl ::std::str::FromStr for $ty {
            type Err = $unknown;

            fn from_str(s: &str) -> Result<Self, Self::Err> {
                $ty::ALL
                    .into_iter()
                    .find(|v| v.as_str() == s)
                    .ok_or_else(|| $unknown(s.to_owned()))
            }
        }
    };
}
